import { SortedDueList } from './sorted-due-list';

interface Item {
  dueAt: number;
  key: string;
}

/** Keys whose order is their number's (zero-padded). */
const keyOf = (n: number): string => `k${String(n).padStart(5, '0')}`;
const item = (dueAt: number, n: number): Item => ({ dueAt, key: keyOf(n) });
const shown = (list: SortedDueList<Item>) => [...list.values()].map((i) => `${i.dueAt}:${i.key.slice(-1)}`);

function listOf(dueTimes: number[], maxChunk = 4): { list: SortedDueList<Item>; items: Item[] } {
  const list = new SortedDueList<Item>(maxChunk);
  const items = dueTimes.map((dueAt, n) => item(dueAt, n));
  for (const i of items) list.insert(i);
  return { list, items };
}

/** A reference order: due time, then key (these keys are ASCII, so JavaScript's order is their byte order). */
const inListOrder = (items: Item[]) => [...items].sort((a, b) => a.dueAt - b.dueAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

describe('SortedDueList', () => {
  it('keeps items in due order, equal due times in key order whatever order they came in', () => {
    const list = new SortedDueList<Item>(2);
    for (const [dueAt, n] of [[5, 0], [1, 3], [3, 2], [1, 1], [9, 4], [1, 0], [3, 1]]) list.insert(item(dueAt, n));
    expect(shown(list)).toEqual(['1:0', '1:1', '1:3', '3:1', '3:2', '5:0', '9:4']);
    expect(list.size).toBe(7);
  });

  it('counts due items at any time, across chunks', () => {
    const { list } = listOf([5, 1, 3, 1, 9, 0, 3, 7, 2, 8]);
    expect(list.countDue(-1)).toBe(0);
    expect(list.countDue(1)).toBe(3);
    expect(list.countDue(3)).toBe(6);
    expect(list.countDue(100)).toBe(10);
  });

  it('removes the very item asked for and nothing else', () => {
    const { list, items } = listOf([1, 1, 1, 2, 2, 3]);
    expect(list.remove(items[1])).toBe(true);
    expect(list.remove(items[1])).toBe(false);
    expect(list.remove(item(1, 0))).toBe(false);
    expect([...list.values()]).toEqual([items[0], items[2], items[3], items[4], items[5]]);
    for (const i of items) list.remove(i);
    expect(list.size).toBe(0);
    expect([...list.values()]).toEqual([]);
    expect(list.countDue(10)).toBe(0);
  });

  it('puts an item in the place of the one with its due time and key, and of nothing absent', () => {
    const { list, items } = listOf([1, 1, 1, 2]);
    list.insertRun([item(3, 9), item(3, 8)]);
    const [next, later] = [{ ...items[1] }, item(3, 9)];
    expect(list.replace(items[1], next)).toBe(true);
    expect(list.replace(items[1], next)).toBe(false);
    expect(list.replace([...list.values()][5], later)).toBe(true);
    expect([...list.values()]).toEqual([items[0], next, items[2], items[3], item(3, 8), later]);
    expect([...list.values()][1]).toBe(next);
    expect(list.size).toBe(6);
  });

  it('gives the first due items without removing them', () => {
    const { list } = listOf([4, 2, 8, 6]);
    expect(list.firstDue(6, 10).map((i) => i.dueAt)).toEqual([2, 4, 6]);
    expect(list.firstDue(6, 2).map((i) => i.dueAt)).toEqual([2, 4]);
    expect(list.firstDue(1, 2)).toEqual([]);
    expect(list.size).toBe(4);
  });

  it('given a run due after every listed item, counts it as it came and serves it in key order', () => {
    const { list } = listOf([1, 2]);
    list.insertRun([item(5, 9), item(5, 3), item(5, 7)]);
    list.insertRun([item(5, 4)]);
    expect(list.size).toBe(6);
    expect(list.countDue(4)).toBe(2);
    expect(list.countDue(5)).toBe(6);
    expect(list.firstDue(5, 4).map((i) => i.key)).toEqual([keyOf(0), keyOf(1), keyOf(3), keyOf(4)]);
    expect(shown(list)).toEqual(['1:0', '2:1', '5:3', '5:4', '5:7', '5:9']);
  });

  it('given a run due at a time no listed item has, between listed items, keeps it there as it came until read', () => {
    const { list } = listOf([1, 3, 5, 7, 9], 4);
    list.insertRun([item(4, 9), item(4, 6)]);
    list.insertRun([item(2, 8)]);
    list.insertRun([item(4, 7)]);
    expect(list.countDue(4)).toBe(6);
    expect(shown(list)).toEqual(['1:0', '2:8', '3:1', '4:6', '4:7', '4:9', '5:2', '7:3', '9:4']);
  });

  it('given a run due at a time already listed, or at several times, merges it into its place', () => {
    const { list } = listOf([1, 3, 3, 5, 9], 2);
    list.insertRun([item(3, 10), item(3, 19), item(3, 15)]);
    list.insertRun([item(9, 16), item(0, 17), item(4, 18)]);
    expect(shown(list)).toEqual(['0:7', '1:0', '3:1', '3:2', '3:0', '3:5', '3:9', '4:8', '5:3', '9:4', '9:6']);
    expect(list.size).toBe(11);
  });

  it('forgets a run it has not sorted yet when cleared, answering what it held', () => {
    const { list } = listOf([1]);
    list.insertRun([item(2, 5), item(2, 4)]);
    expect(list.clear().flat()).toHaveLength(3);
    expect(list.size).toBe(0);
    list.insert(item(1, 1));
    expect(shown(list)).toEqual(['1:1']);
  });

  it('agrees with a sorted array under random inserts, runs and removals', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const list = new SortedDueList<Item>(8);
    let reference: Item[] = [];
    let n = 0;
    const fresh = (dueAt: number) => ({ dueAt, key: `${keyOf(Math.floor(random() * 100_000))}-${n++}` });
    for (let step = 0; step < 2000; step++) {
      const roll = random();
      if (reference.length > 0 && roll < 0.35) {
        const [gone] = reference.splice(Math.floor(random() * reference.length), 1);
        expect(list.remove(gone)).toBe(true);
      } else if (roll < 0.45) {
        // A request's run: one due time, now and then after every listed item.
        const dueAt = random() < 0.5 ? 100 + step : Math.floor(random() * 100);
        const run = Array.from({ length: 1 + Math.floor(random() * 20) }, () => fresh(dueAt));
        list.insertRun(run);
        reference.push(...run);
      } else if (roll < 0.47) {
        expect(list.firstDue(50, 5)).toEqual(inListOrder(reference).filter((i) => i.dueAt <= 50).slice(0, 5));
      } else if (roll < 0.48) {
        list.clear();
        reference = [];
      } else {
        const i = fresh(Math.floor(random() * 100));
        list.insert(i);
        reference.push(i);
      }
      if (step % 100 === 0) expect(list.countDue(60)).toBe(reference.filter((i) => i.dueAt <= 60).length);
    }
    expect([...list.values()]).toEqual(inListOrder(reference));
    expect(list.size).toBe(reference.length);
    for (const now of [0, 17, 50, 99, 5_000]) expect(list.countDue(now)).toBe(reference.filter((i) => i.dueAt <= now).length);
  });
});
