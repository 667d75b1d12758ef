/**
 * A larger buffer holding the first `used` bytes of `buffer`: at least
 * `needed` bytes, and at least twice the old size, so writers that append
 * piece by piece copy each byte a bounded number of times.
 */
export function grownBuffer(buffer: Buffer, used: number, needed: number): Buffer {
  const next = Buffer.allocUnsafe(Math.max(needed, buffer.length * 2));
  buffer.copy(next, 0, 0, used);
  return next;
}
