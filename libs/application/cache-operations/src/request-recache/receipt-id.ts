import { randomBytes } from 'node:crypto';
import { receiptIdOf } from '@bpc/domain';

export { receiptIdMintedAt } from '@bpc/domain';

/** A fresh recache receipt id (`receiptIdOf`: UUID v7, the time it was minted in its first bits), random past the time. */
export function newReceiptId(now: number): string {
  return receiptIdOf(now, randomBytes(16));
}
