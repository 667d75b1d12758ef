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

/** The lower-case text of the UUID whose bytes are at `bytes[at …]`. */
export function uuidText(bytes: Uint8Array, at: number): string {
  const hex = Buffer.from(bytes.buffer, bytes.byteOffset + at, UUID_BYTES).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
