import { until } from '@bpc/testing';
import type { ExportSlots } from './export-slots.port';

/**
 * The behaviour every ExportSlots adapter must show, run against each of them
 * (memory and Redis). `factory` gives a fresh, isolated store per call; a
 * second call with the same `shareWith` sees the same slots (two replicas),
 * for adapters that share.
 */
export function describeExportSlotsContract(name: string, factory: (shareWith?: ExportSlots) => Promise<ExportSlots>): void {
  const LONG = 60_000;

  describe(`ExportSlots contract: ${name}`, () => {
    let slots: ExportSlots;
    const others: ExportSlots[] = [];

    beforeEach(async () => {
      slots = await factory();
    });

    afterEach(async () => {
      await Promise.all([slots.close(), ...others.splice(0).map((o) => o.close())]);
    });

    it('claims a free slot with the next id and names the holder to later claims', async () => {
      expect(await slots.claim('acme', 'replica-a', 'q1', LONG)).toEqual({ claimed: true, exportId: 1 });
      expect(await slots.claim('acme', 'replica-b', 'q2', LONG)).toEqual({ claimed: false, holder: { exportId: 1, owner: 'replica-a', questionHash: 'q1' } });
      expect(await slots.holder('acme')).toEqual({ exportId: 1, owner: 'replica-a', questionHash: 'q1' });
      // Another account has its own slot; ids are shared by every account.
      expect(await slots.claim('other', 'replica-b', 'q3', LONG)).toEqual({ claimed: true, exportId: 2 });
      expect(await slots.holder('none')).toBeUndefined();
    });

    it('gives exactly one of concurrent claims for one account the slot', async () => {
      const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => slots.claim('acme', `r${i}`, `q${i}`, LONG)));
      const won = claims.filter((c) => c.claimed);
      expect(won).toHaveLength(1);
      const exportId = won[0].claimed ? won[0].exportId : 0;
      for (const c of claims) if (!c.claimed) expect(c.holder.exportId).toBe(exportId);
    });

    it('releases only for the holding export, then the next claim gets a new id', async () => {
      await slots.claim('acme', 'a', 'q', LONG);
      expect(await slots.release('acme', 99)).toBe(false);
      expect(await slots.isLive('acme', 1)).toBe(true);
      expect(await slots.release('acme', 1)).toBe(true);
      expect(await slots.isLive('acme', 1)).toBe(false);
      expect(await slots.release('acme', 1)).toBe(false);
      expect(await slots.claim('acme', 'b', 'q', LONG)).toEqual({ claimed: true, exportId: 2 });
    });

    it('ends a lease that is not renewed, and keeps one that is', async () => {
      await slots.claim('dead', 'crashed', 'q', 300);
      await slots.claim('live', 'alive', 'q', 300);
      // Renewed at once to a long lease: it outlives the short one it was claimed with, which the other lease ends by.
      expect(await slots.renew('live', 2, LONG)).toBe(true);
      await until(async () => !(await slots.isLive('dead', 1)), { what: 'the unrenewed lease ended' });
      expect(await slots.isLive('dead', 1)).toBe(false);
      expect(await slots.holder('dead')).toBeUndefined();
      expect(await slots.renew('dead', 1, 300)).toBe(false);
      expect(await slots.isLive('live', 2)).toBe(true);
      expect(await slots.claim('dead', 'next', 'q', LONG)).toEqual({ claimed: true, exportId: 3 });
      // The crashed holder cannot extend or free its successor's slot.
      expect(await slots.renew('dead', 1, LONG)).toBe(false);
      expect(await slots.release('dead', 1)).toBe(false);
      expect(await slots.isLive('dead', 3)).toBe(true);
    });

    it('never hands out an id at or below a reserved one', async () => {
      await slots.reserveIdsUpTo(41);
      await slots.reserveIdsUpTo(7);
      expect(await slots.claim('acme', 'a', 'q', LONG)).toEqual({ claimed: true, exportId: 42 });
    });

    it('answers readiness', async () => {
      await expect(slots.check()).resolves.toBeUndefined();
    });

    if (name === 'redis') {
      it('shares slots and ids between two connections on one prefix (two replicas)', async () => {
        const other = await factory(slots);
        others.push(other);
        expect(await slots.claim('acme', 'a', 'q', LONG)).toEqual({ claimed: true, exportId: 1 });
        expect(await other.claim('acme', 'b', 'q2', LONG)).toEqual({ claimed: false, holder: { exportId: 1, owner: 'a', questionHash: 'q' } });
        expect(await other.claim('beta', 'b', 'q2', LONG)).toEqual({ claimed: true, exportId: 2 });
        expect(await other.isLive('acme', 1)).toBe(true);
      });
    }
  });
}
