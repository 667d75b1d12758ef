import { indexMember, parseIndexMember, prefixEnd, SortedStrings } from './entry-index';

describe('entry index', () => {
  it('orders the members of a URL together, ahead of longer URLs, dimensions by number', () => {
    const members = [indexMember('https://a/x/y', 1), indexMember('https://a/x', 10), indexMember('https://a/x', 2), indexMember('https://a/x?q', 1)].sort();
    expect(members.map(parseIndexMember)).toEqual([
      { url: 'https://a/x', dimensionId: 2 },
      { url: 'https://a/x', dimensionId: 10 },
      { url: 'https://a/x/y', dimensionId: 1 },
      { url: 'https://a/x?q', dimensionId: 1 },
    ]);
  });

  it('ends a prefix range just above every string that starts with the prefix', () => {
    expect(prefixEnd('https://a/x')).toBe('https://a/y');
    expect(prefixEnd('')).toBeUndefined();
    expect(prefixEnd('a\u{10FFFF}')).toBe('b');
    expect(prefixEnd('a\uD7FF')).toBe('a\uE000');
  });

  it('keeps a sorted set over many blocks: add, delete, rank and walks from a position agree with a sorted array', () => {
    const set = new SortedStrings();
    const model = new Set<string>();
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647);
    for (let i = 0; i < 20_000; i++) {
      const value = `k${random() % 6_000}`;
      if (random() % 4 === 0) expect(set.delete(value)).toBe(model.delete(value));
      else expect(set.add(value)).toBe(!model.has(value) && Boolean(model.add(value)));
    }
    const sorted = [...model].sort();
    expect(set.size).toBe(sorted.length);
    expect([...set.from(0)]).toEqual(sorted);
    for (const probe of ['k', 'k3', 'k4999', 'z', sorted[1234]]) expect(set.rank(probe)).toBe(sorted.filter((v) => v < probe).length);
    expect([...set.from(2_500)].slice(0, 3)).toEqual(sorted.slice(2_500, 2_503));
  });
});
