import { SortedDueList } from './sorted-due-list';

interface Item {
  dueAt: number;
  seq: number;
}

function listOf(dueTimes: number[], maxChunk = 4): { list: SortedDueList<Item>; items: Item[] } {
  const list = new SortedDueList<Item>(maxChunk);
  const items = dueTimes.map((dueAt, seq) => ({ dueAt, seq }));
  for (const item of items) list.insert(item);
  return { list, items };
}

describe('SortedDueList', () => {
  it('keeps items in due order, equal due times first-in first-out', () => {
    const { list } = listOf([5, 1, 3, 1, 9, 0, 3, 7, 2, 8]);
    expect([...list.values()].map((i) => `${i.dueAt}:${i.seq}`)).toEqual([
      '0:5', '1:1', '1:3', '2:8', '3:2', '3:6', '5:0', '7:7', '8:9', '9:4',
    ]);
    expect(list.size).toBe(10);
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
    expect(list.remove({ dueAt: 1, seq: 0 })).toBe(false);
    expect([...list.values()].map((i) => i.seq)).toEqual([0, 2, 3, 4, 5]);
    for (const item of items) list.remove(item);
    expect(list.size).toBe(0);
    expect([...list.values()]).toEqual([]);
    expect(list.countDue(10)).toBe(0);
  });

  it('gives the first due items without removing them', () => {
    const { list } = listOf([4, 2, 8, 6]);
    expect(list.firstDue(6, 10).map((i) => i.dueAt)).toEqual([2, 4, 6]);
    expect(list.firstDue(6, 2).map((i) => i.dueAt)).toEqual([2, 4]);
    expect(list.firstDue(1, 2)).toEqual([]);
    expect(list.size).toBe(4);
  });

  it('agrees with a sorted array under random inserts and removals', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const list = new SortedDueList<Item>(8);
    const reference: Item[] = [];
    for (let seq = 0; seq < 2000; seq++) {
      if (reference.length > 0 && random() < 0.4) {
        const [gone] = reference.splice(Math.floor(random() * reference.length), 1);
        expect(list.remove(gone)).toBe(true);
      } else {
        const item = { dueAt: Math.floor(random() * 100), seq };
        list.insert(item);
        reference.push(item);
      }
    }
    reference.sort((a, b) => a.dueAt - b.dueAt || a.seq - b.seq);
    expect([...list.values()]).toEqual(reference);
    expect(list.size).toBe(reference.length);
    for (const now of [0, 17, 50, 99]) expect(list.countDue(now)).toBe(reference.filter((i) => i.dueAt <= now).length);
  });
});
