/** Bytes a UUID takes. */
export const UUID_BYTES = 16;

/** Each character code's hex digit value (lower case only), -1 for anything else. */
const DIGIT = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) DIGIT['0123456789abcdef'.charCodeAt(d)] = d;
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
/** Where the four dashes of a UUID's text are. */
const DASHES = [8, 13, 18, 23];

/**
 * Writes the 16 bytes of `id` at `target[at …]` when `id` is a UUID's text
 * in lower case (`randomUUID`'s form, which `uuidText` gives back exactly);
 * answers false for anything else, having maybe written some of the bytes.
 */
export function writeUuidBytes(id: string, target: Uint8Array, at: number): boolean {
  if (id.length !== 36) return false;
  let o = at;
  for (let i = 0; i < 36; i += 2) {
    if (i === DASHES[0] || i === DASHES[1] || i === DASHES[2] || i === DASHES[3]) {
      if (id.charCodeAt(i) !== 0x2d) return false;
      i += 1;
    }
    const hi = DIGIT[id.charCodeAt(i)] ?? -1;
    const lo = DIGIT[id.charCodeAt(i + 1)] ?? -1;
    if (hi < 0 || lo < 0) return false;
    target[o++] = (hi << 4) | lo;
  }
  return true;
}

/** The lower-case text of the UUID whose bytes are at `bytes[at …]`. */
export function uuidText(bytes: Uint8Array, at: number): string {
  const h = (k: number): string => HEX[bytes[at + k]];
  return `${h(0)}${h(1)}${h(2)}${h(3)}-${h(4)}${h(5)}-${h(6)}${h(7)}-${h(8)}${h(9)}-${h(10)}${h(11)}${h(12)}${h(13)}${h(14)}${h(15)}`;
}
