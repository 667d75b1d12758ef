/** How long results of positioned mutations are kept by default; the port promises at least an hour. */
export const DEFAULT_RESULT_TTL_MS = 6 * 60 * 60 * 1000;

/** A result recorded for a projected event, and until when it is kept. */
export interface RecordedResult {
  readonly eventId: string;
  readonly value: unknown;
  readonly expiresAt: number;
}

/**
 * Results of positioned mutations by event id, for in-process adapters: kept
 * for `ttlMs`, and at most `maxEntries` (oldest dropped first) so a long
 * replay cannot grow the map without bound. Insertion order is expiry order
 * because the TTL is fixed, so expiring is a walk from the front.
 */
export class RecordedResults {
  private readonly byEventId = new Map<string, RecordedResult>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  record(eventId: string, value: unknown, now: number): void {
    this.byEventId.delete(eventId);
    this.byEventId.set(eventId, { eventId, value, expiresAt: now + this.ttlMs });
    this.expire(now);
  }

  get(eventId: string, now: number): unknown {
    const kept = this.byEventId.get(eventId);
    // A void mutation reads as `null`: applied, with nothing to tell.
    return kept && kept.expiresAt > now ? (kept.value ?? null) : undefined;
  }

  /** Restores a recorded result as it was (from a snapshot). */
  restore(result: RecordedResult, now: number): void {
    if (result.expiresAt > now) this.byEventId.set(result.eventId, result);
    this.expire(now);
  }

  values(now: number): RecordedResult[] {
    this.expire(now);
    return [...this.byEventId.values()];
  }

  private expire(now: number): void {
    for (const [eventId, result] of this.byEventId) {
      if (result.expiresAt > now && this.byEventId.size <= this.maxEntries) return;
      this.byEventId.delete(eventId);
    }
  }
}
