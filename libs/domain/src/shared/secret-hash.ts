import { createHash, timingSafeEqual } from 'node:crypto';

export function sha256Hex(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * Compares a presented secret with a stored SHA-256 in constant time: both
 * sides are fixed-length digests, so neither content nor length leaks.
 */
export function matchesSha256(presented: string | undefined, expectedHex: string): boolean {
  if (presented === undefined) return false;
  const expected = Buffer.from(expectedHex, 'hex');
  const actual = createHash('sha256').update(presented).digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
