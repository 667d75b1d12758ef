import { newReceiptId, receiptIdMintedAt } from './receipt-id';

describe('recache receipt ids', () => {
  const now = Date.parse('2026-11-28T02:00:00.123Z');

  it('are version 7 UUIDs carrying the time they were minted', () => {
    const id = newReceiptId(now);
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(receiptIdMintedAt(id)).toBe(now);
  });

  it('differ when minted at the same time', () => {
    expect(newReceiptId(now)).not.toBe(newReceiptId(now));
  });

  it('tell no time for other ids', () => {
    expect(receiptIdMintedAt('2b3d1c6e-0f4e-4c1a-9d1e-5b0e8c7a6f10')).toBeUndefined();
    expect(receiptIdMintedAt('not-a-receipt')).toBeUndefined();
  });
});
