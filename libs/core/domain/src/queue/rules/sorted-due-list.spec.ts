import { compareKeys, SortedDueList } from './sorted-due-list';

interface Item {
  dueAt: number;
  key: string;
  seq: number;
}

/** Keys whose order is their sequence number's (zero-padded). */
const keyOf = (seq: number): string => `k${String(seq).padStart(5, '0')}`;

function listOf(dueTimes: number[], maxChunk = 4): { list: SortedDueList<Item>; items: Item[] } {
  const list = new SortedDueList<Item>(maxChunk);
  const items = dueTimes.map((dueAt, seq) => ({ dueAt, key: keyOf(seq), seq }));
  for (const item of items) list.insert(item);
  return { list, items };
}

describe('SortedDueList', () => {
  it('keeps items in due order, equal due times in key order', () => {
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
    expect(list.remove({ dueAt: 1, key: keyOf(0), seq: 0 })).toBe(false);
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
        const item = { dueAt: Math.floor(random() * 100), key: `${keyOf(Math.floor(random() * 100_000))}-${seq}`, seq };
        list.insert(item);
        reference.push(item);
      }
    }
    reference.sort((a, b) => a.dueAt - b.dueAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    expect([...list.values()]).toEqual(reference);
    expect(list.size).toBe(reference.length);
    for (const now of [0, 17, 50, 99]) expect(list.countDue(now)).toBe(reference.filter((i) => i.dueAt <= now).length);
  });

  it('inserts equal due times given out of key order in key order', () => {
    const list = new SortedDueList<Item>(2);
    for (const seq of [3, 1, 4, 0, 2]) list.insert({ dueAt: 1, key: keyOf(seq), seq });
    expect([...list.values()].map((i) => i.seq)).toEqual([0, 1, 2, 3, 4]);
  });
});

describe('compareKeys', () => {
  it('orders keys as their UTF-8 bytes compare (Redis sorted set member order), characters above U+FFFF included', () => {
    const keys = ['1|https://a.example/ü', '1|https://a.example/z', '1|https://a.example/\u{1F600}', '1|https://a.example/\uFFFD', '1|https://a.example/', '2|https://a.example/', '10|https://a.example/'];
    const byBytes = [...keys].sort((a, b) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
    expect([...keys].sort(compareKeys)).toEqual(byBytes);
    expect(compareKeys('a', 'a')).toBe(0);
  });
});
