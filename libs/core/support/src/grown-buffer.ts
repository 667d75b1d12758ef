/**
 * A larger buffer holding the first `used` bytes of `buffer`: at least
 * `needed` bytes, and at least twice the old size, so writers that append
 * piece by piece copy each byte a bounded number of times. Its memory is its
 * own (never Node's shared pool), so it can be transferred to another thread.
 */
export function grownBuffer(buffer: Buffer, used: number, needed: number): Buffer {
  const next = Buffer.allocUnsafeSlow(Math.max(needed, buffer.length * 2));
  buffer.copy(next, 0, 0, used);
  return next;
}

/** A typed array twice as long as `array`, starting with its elements (columns and offsets that fill up one element at a time). */
export function grownArray<T extends Uint8Array<ArrayBuffer> | Uint32Array<ArrayBuffer> | Float64Array<ArrayBuffer>>(array: T): T {
  const next = new (array.constructor as new (length: number) => T)(Math.max(1, array.length * 2));
  next.set(array);
  return next;
}
