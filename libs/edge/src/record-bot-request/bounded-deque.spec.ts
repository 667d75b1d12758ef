import { BoundedDeque } from './bounded-deque';

describe('BoundedDeque', () => {
  it('keeps order and drops the oldest when full', () => {
    const d = new BoundedDeque<number>(3);
    expect([1, 2, 3, 4].map((n) => d.push(n))).toEqual([0, 0, 0, 1]);
    expect(d.take(10)).toEqual([2, 3, 4]);
    expect(d.size).toBe(0);
  });

  it('puts a refused batch back in front, dropping the oldest that no longer fit', () => {
    const d = new BoundedDeque<number>(4);
    d.push(1);
    d.push(2);
    d.push(3);
    const batch = d.take(2);
    d.push(4);
    d.push(5);
    expect(d.unshiftAll(batch)).toBe(1);
    expect(d.take(10)).toEqual([2, 3, 4, 5]);
  });

  it('grows past its initial allocation up to the capacity', () => {
    const d = new BoundedDeque<number>(5000);
    for (let i = 0; i < 6000; i += 1) d.push(i);
    expect(d.size).toBe(5000);
    expect(d.take(1)).toEqual([1000]);
  });
});
