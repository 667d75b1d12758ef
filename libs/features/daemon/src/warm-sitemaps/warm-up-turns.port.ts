/**
 * Who runs a sitemap warm-up of one interval: the first daemon to claim the
 * interval's turn. Standalone there is one daemon (memory); in a cluster the
 * turn is a Redis key set only if absent (`SET NX PX`), so of any number of
 * daemons checking the same interval exactly one gets it, whatever their
 * clocks' small differences (the key names the interval, not the time).
 */
export interface WarmUpTurns {
  /**
   * true for the first claim of `turn` (until `ttlMs` has passed), false for
   * every later one. Throws when the store cannot be reached: no turn is
   * taken then, and the caller tries again at its next check.
   */
  claim(turn: string, owner: string, ttlMs: number): Promise<boolean>;
  close(): Promise<void>;
}

export const WARM_UP_TURNS = Symbol('WARM_UP_TURNS');
