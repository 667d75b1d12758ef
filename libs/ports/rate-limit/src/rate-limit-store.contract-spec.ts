import type { RateLimitStore } from './rate-limit-store.port';

/**
 * The behaviour every RateLimitStore adapter must show, run against each of
 * them (memory and Redis). The factory gives a fresh, isolated store per
 * test; the suite closes it.
 */
export function describeRateLimitStoreContract(name: string, factory: () => Promise<RateLimitStore>): void {
  const T = 1_700_000_040_000; // a multiple of 60 s
  const MINUTE = 60_000;

  describe(`RateLimitStore contract: ${name}`, () => {
    let store: RateLimitStore;

    beforeEach(async () => {
      store = await factory();
    });

    afterEach(async () => {
      await store.close();
    });

    it('counts hits per key within a window aligned on the epoch and says when it ends', async () => {
      expect(await store.hit('a', MINUTE, T + 5_000)).toEqual({ count: 1, resetAtMs: T + MINUTE });
      expect(await store.hit('a', MINUTE, T + 59_999)).toEqual({ count: 2, resetAtMs: T + MINUTE });
      expect(await store.hit('b', MINUTE, T + 10_000)).toEqual({ count: 1, resetAtMs: T + MINUTE });
    });

    it('starts again from one in the next window', async () => {
      await store.hit('a', MINUTE, T);
      await store.hit('a', MINUTE, T + 1);
      expect(await store.hit('a', MINUTE, T + MINUTE)).toEqual({ count: 1, resetAtMs: T + 2 * MINUTE });
    });

    it('gives concurrent hits of one key distinct counts', async () => {
      const windows = await Promise.all(Array.from({ length: 50 }, () => store.hit('busy', MINUTE, T + 1_000)));
      expect(windows.map((w) => w.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    });

    it('answers readiness', async () => {
      await expect(store.check()).resolves.toBeUndefined();
    });
  });
}
