import { backoffDelay } from './backoff';

describe('backoffDelay', () => {
  it('doubles from the initial delay up to the cap, within ±20 %', () => {
    const options = { initialMs: 100, maxMs: 1_000 };
    const expected = [100, 200, 400, 800, 1_000, 1_000];
    expected.forEach((base, i) => {
      const delay = backoffDelay(i + 1, options);
      expect(delay).toBeGreaterThanOrEqual(base * 0.8);
      expect(delay).toBeLessThanOrEqual(base * 1.2);
    });
  });
});
