import type { WarmUpTurns } from './warm-up-turns.port';

/**
 * What every WarmUpTurns adapter must do. `factory` gives a fresh store; a
 * second call with `shareWith` gives another daemon's view of the same turns
 * (adapters that share). `expire` makes time pass for the adapter.
 */
export function describeWarmUpTurnsContract(name: string, factory: (shareWith?: WarmUpTurns) => Promise<WarmUpTurns>, options: { shared: boolean; expire: (ms: number) => Promise<void> }): void {
  describe(`WarmUpTurns contract: ${name}`, () => {
    let turns: WarmUpTurns;
    const others: WarmUpTurns[] = [];

    beforeEach(async () => {
      turns = await factory();
    });

    afterEach(async () => {
      await Promise.all([turns.close(), ...others.splice(0).map((o) => o.close())]);
    });

    it('gives a turn to its first claim only, each turn on its own', async () => {
      expect(await turns.claim('w:s:1', 'a', 60_000)).toBe(true);
      expect(await turns.claim('w:s:1', 'a', 60_000)).toBe(false);
      expect(await turns.claim('w:s:2', 'a', 60_000)).toBe(true);
    });

    it('gives a turn again once it has expired', async () => {
      expect(await turns.claim('w:s:1', 'a', 50)).toBe(true);
      await options.expire(60);
      expect(await turns.claim('w:s:1', 'b', 50)).toBe(true);
    });

    if (options.shared) {
      it('gives one turn to exactly one of several daemons claiming at once', async () => {
        const daemons = [turns, ...(await Promise.all([1, 2, 3].map(() => factory(turns))))];
        others.push(...daemons.slice(1));
        const claims = await Promise.all(daemons.map((d, i) => d.claim('w:s:7', `daemon-${i}`, 60_000)));
        expect(claims.filter(Boolean)).toHaveLength(1);
      });
    }
  });
}
