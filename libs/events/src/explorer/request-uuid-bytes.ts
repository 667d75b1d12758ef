/** Bytes a UUID takes. */
export const UUID_BYTES = 16;

/** Each character code's hex digit value (lower case only), -1 for anything else up to 'f' (see `digit`). */
const DIGIT = new Int8Array(0x67).fill(-1);
for (let d = 0; d < 16; d++) DIGIT['0123456789abcdef'.charCodeAt(d)] = d;
/** Where each of a UUID's 16 bytes starts in its text (two hex digits each, around four dashes). */
const BYTE_AT = [0, 2, 4, 6, 9, 11, 14, 16, 19, 21, 24, 26, 28, 30, 32, 34];

/**
 * Writes the 16 bytes of `id` at `target[at …]` when `id` is a UUID's text
 * in lower case (`randomUUID`'s form, which `uuidText` gives back exactly);
 * answers false for anything else, having maybe written some of the bytes.
 */
export function writeUuidBytes(id: string, target: Uint8Array, at: number): boolean {
  if (id.length !== 36 || id.charCodeAt(8) !== 0x2d || id.charCodeAt(13) !== 0x2d || id.charCodeAt(18) !== 0x2d || id.charCodeAt(23) !== 0x2d) return false;
  for (let b = 0; b < 16; b++) {
    const i = BYTE_AT[b];
    const hi = digit(id.charCodeAt(i));
    const lo = digit(id.charCodeAt(i + 1));
    if (hi < 0 || lo < 0) return false;
    target[at + b] = (hi << 4) | lo;
  }
  return true;
}

/** The value of a lower-case hex digit's character code, -1 for any other code (never a read past the table: it would make the lookup slow). */
function digit(code: number): number {
  return code < 0x67 ? DIGIT[code] : -1;
}

/** Two lower-case hex digits per byte value, in ASCII: byte `b`'s at `[2b, 2b + 2)`. */
const HEX2 = Buffer.from(Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0')).join(''), 'latin1');
/** Where a UUID's text is put together (36 ASCII bytes; one thread writes it at a time). */
const TEXT = Buffer.alloc(36);
TEXT[8] = TEXT[13] = TEXT[18] = TEXT[23] = 0x2d;

/**
 * The lower-case text of the UUID whose bytes are at `bytes[at …]`. Written
 * as ASCII, then read as one flat string: a string put together from slices
 * of a hex string was a tree that every character read had to flatten
 * first (the recording worker reads each id character by character).
 */
export function uuidText(bytes: Uint8Array, at: number): string {
  for (let b = 0; b < UUID_BYTES; b++) {
    const h = bytes[at + b] * 2;
    const i = BYTE_AT[b];
    TEXT[i] = HEX2[h];
    TEXT[i + 1] = HEX2[h + 1];
  }
  return TEXT.toString('latin1', 0, 36);
}
