/** A result recorded for a projected event, and until when it is kept. */
export interface RecordedResult {
  readonly eventId: string;
  readonly value: unknown;
  readonly expiresAt: number;
}

/**
 * Results of positioned mutations by event id, for the file adapter: kept for
 * `ttlMs`, at most `maxEntries` (oldest first out). Insertion order is expiry
 * order because the TTL is fixed, so expiring walks from the front.
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
    return kept && kept.expiresAt > now ? kept.value : undefined;
  }

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
