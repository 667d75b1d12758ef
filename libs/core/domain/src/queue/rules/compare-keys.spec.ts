import { compareKeys, sortByKey } from './compare-keys';

/** Redis's order of sorted set members with equal scores: their UTF-8 bytes compared. */
const byBytes = (a: string, b: string) => Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));

describe('compareKeys', () => {
  const keys = [
    '1|https://a.example/ü',
    '1|https://a.example/z',
    '1|https://a.example/\u{1F600}',
    '1|https://a.example/\uFFFD',
    '1|https://a.example/\uE000x',
    '1|https://a.example/\u{10000}',
    '1|https://a.example/\u{10000}x',
    '1|https://a.example/',
    '1|https://a.example',
    '2|https://a.example/',
    '10|https://a.example/',
    '1|https://a.example/p?q=%C3%BC',
  ];

  it('orders keys as their UTF-8 bytes compare, characters above U+FFFF included', () => {
    expect([...keys].sort(compareKeys)).toEqual([...keys].sort(byBytes));
    expect(compareKeys('1|a', '1|a')).toBe(0);
  });

  it('sorts items by key in that order, with or without characters from U+D800 up', () => {
    const ascii = keys.filter((key) => [...key].every((char) => char.charCodeAt(0) < 0x80));
    for (const set of [keys, ascii]) {
      expect(sortByKey(set.map((key) => ({ key }))).map((i) => i.key)).toEqual([...set].sort(byBytes));
    }
  });
});
