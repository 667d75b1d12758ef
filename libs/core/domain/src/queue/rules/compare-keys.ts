/** Code units from U+D800 up: the only ones where UTF-16 order and UTF-8 byte order part. */
const HIGH_UNITS = /[\uD800-\uFFFF]/;

/**
 * The order of two entry keys as their UTF-8 bytes compare (memcmp, as Redis
 * orders sorted set members of equal score), which is code point order.
 * JavaScript compares UTF-16 code units, which differs only where a surrogate
 * (half of a character above U+FFFF) meets a unit from U+E000 to U+FFFF, so
 * the native comparison serves unless both keys hold a unit from U+D800 up
 * (URLs, kept percent-encoded, hold none).
 */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  if (HIGH_UNITS.test(a) && HIGH_UNITS.test(b)) return compareCodePoints(a, b);
  return a < b ? -1 : 1;
}

/** Sorts items in place by key in `compareKeys` order: natively, unless a key holds a unit from U+D800 up. */
export function sortByKey<T extends { readonly key: string }>(items: T[]): T[] {
  if (items.some((item) => HIGH_UNITS.test(item.key))) return items.sort((a, b) => compareKeys(a.key, b.key));
  // Equality is checked second: unequal strings whose hashes are known (Map keys) differ at once.
  return items.sort((a, b) => (a.key < b.key ? -1 : a.key === b.key ? 0 : 1));
}

function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    let x = a.charCodeAt(i);
    let y = b.charCodeAt(i);
    if (x === y) continue;
    if (x >= 0xd800 && y >= 0xd800) {
      // Surrogates above U+E000–U+FFFF, each group keeping its own order.
      x = x >= 0xe000 ? x - 0x800 : x + 0x2000;
      y = y >= 0xe000 ? y - 0x800 : y + 0x2000;
    }
    return x - y;
  }
  return a.length - b.length;
}
