/**
 * A recache receipt id: a UUID version 7 (RFC 9562) whose first 48 bits are
 * the time it was minted (Unix ms) and the rest is the 16 `random` bytes
 * given (the caller's source: the daemon's is crypto, demo data's a seed).
 * The receipt reader uses that time to tell a receipt it may not have
 * projected yet (minted moments ago) from an id it will never know.
 */
export function receiptIdOf(mintedAt: number, random: Uint8Array): string {
  if (random.length !== 16) throw new Error(`a receipt id takes 16 random bytes, not ${random.length}`);
  const bytes = Buffer.from(random);
  bytes.writeUIntBE(Math.max(0, Math.floor(mintedAt)) % 2 ** 48, 0, 6);
  bytes[6] = 0x70 | (bytes[6] & 0x0f);
  bytes[8] = 0x80 | (bytes[8] & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** When a receipt id of `receiptIdOf` was minted (Unix ms); undefined for any other id. */
export function receiptIdMintedAt(receiptId: string): number | undefined {
  if (!UUID_V7.test(receiptId)) return undefined;
  return parseInt(receiptId.slice(0, 8) + receiptId.slice(9, 13), 16);
}
