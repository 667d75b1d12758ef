/**
 * Offsets are decimal integer strings (Kafka style) that may exceed 2^53, so
 * they are compared and incremented as text or BigInt, never as numbers.
 */

const DECIMAL = /^(0|[1-9][0-9]*)$/;

/** Rejects anything but a canonical non-negative decimal integer string. */
export function assertOffset(offset: string): void {
  if (!DECIMAL.test(offset)) throw new Error(`invalid projection offset ${JSON.stringify(offset)}: expected a decimal integer string`);
}

/** True when `offset` is at or below `applied`, i.e. its event was already applied. */
export function isAtOrBelow(offset: string, applied: string): boolean {
  if (offset.length !== applied.length) return offset.length < applied.length;
  return offset <= applied;
}

/** The offset right after `offset`. */
export function offsetAfter(offset: string): string {
  return (BigInt(offset) + 1n).toString();
}
