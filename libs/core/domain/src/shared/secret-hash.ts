import * as crypto from 'node:crypto';

// One-shot hashing (Node >= 20.12) skips the Hash object; the edge hashes a token per request.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'buffer') => Buffer }).hash;

export function sha256Hex(secret: string): string {
  return crypto.createHash('sha256').update(secret).digest('hex');
}

/** The SHA-256 of a secret, as raw bytes. */
export function sha256Digest(secret: string): Buffer {
  return oneShot ? oneShot('sha256', secret, 'buffer') : crypto.createHash('sha256').update(secret).digest();
}

/** Constant-time equality of two digests (false when their lengths differ, which only a misconfiguration causes). */
export function digestsEqual(actual: Buffer, expected: Buffer): boolean {
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

/**
 * Compares a presented secret with a stored SHA-256 in constant time: both
 * sides are fixed-length digests, so neither content nor length leaks.
 */
export function matchesSha256(presented: string | undefined, expectedHex: string): boolean {
  if (presented === undefined) return false;
  return digestsEqual(sha256Digest(presented), Buffer.from(expectedHex, 'hex'));
}
