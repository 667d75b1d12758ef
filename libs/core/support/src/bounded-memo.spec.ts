import { BoundedMemo } from './bounded-memo';

describe('BoundedMemo', () => {
  it('computes each key once, including undefined results', () => {
    const calls: string[] = [];
    const memo = new BoundedMemo((k: string) => (calls.push(k), k === 'none' ? undefined : k.length), 10, 100);
    expect([memo.get('abc'), memo.get('abc'), memo.get('none'), memo.get('none')]).toEqual([3, 3, undefined, undefined]);
    expect(calls).toEqual(['abc', 'none']);
  });

  it('forgets the oldest key beyond its capacity and never keeps over-long keys', () => {
    const calls: string[] = [];
    const memo = new BoundedMemo((k: string) => (calls.push(k), k), 2, 3);
    for (const k of ['a', 'b', 'c', 'a', 'long', 'long']) memo.get(k);
    expect(calls).toEqual(['a', 'b', 'c', 'a', 'long', 'long']);
    memo.get('c');
    expect(calls).toHaveLength(6);
  });
});
