import { FRESH_RECEIPT, freshWaitMs } from './get-recache-receipt.handler';

describe('how long a read waits for a receipt not projected yet', () => {
  const now = Date.UTC(2026, 11, 7, 12);
  const window = FRESH_RECEIPT.mintedWithinMs;

  it('waits until the window after its minting has passed', () => {
    expect(freshWaitMs(now, now)).toBe(window);
    expect(freshWaitMs(now - 4_000, now)).toBe(window - 4_000);
    expect(freshWaitMs(now - window + 1, now)).toBe(1);
  });

  it('waits the whole window for an id minted ahead of this clock (another replica), and not at all beyond it', () => {
    expect(freshWaitMs(now + 3_000, now)).toBe(window);
    expect(freshWaitMs(now + window + 1, now)).toBe(0);
  });

  it('does not wait for an old id, or one the service did not mint', () => {
    expect(freshWaitMs(now - window, now)).toBe(0);
    expect(freshWaitMs(undefined, now)).toBe(0);
  });
});
