import { assertOffset, isAtOrBelow, offsetAfter } from './projection-offsets';
import { RecordedResult, RecordedResults } from './recorded-results';

/** Where a positioned mutation comes from in the event log. */
export interface LedgerPosition {
  readonly stream: string;
  readonly offset: string;
  readonly eventId: string;
}

export interface LedgerState {
  readonly checkpoints: readonly { readonly stream: string; readonly offset: string }[];
  readonly results: readonly RecordedResult[];
}

/**
 * What an in-process store has applied from the log: the last offset per
 * stream and the result per event id, so a redelivered event changes nothing
 * and answers what it answered the first time.
 */
export class ProjectionLedger {
  private readonly checkpoints = new Map<string, string>();
  private readonly results: RecordedResults;

  constructor(resultTtlMs: number, maxResults: number) {
    this.results = new RecordedResults(resultTtlMs, maxResults);
  }

  /**
   * The recorded answer when `position` was applied already, at this offset or
   * (the same event id stored twice by a producer's retry) at an earlier one,
   * whose checkpoint then moves past it; undefined when it is new.
   */
  replayed(position: LedgerPosition, now: number): { applied: false; value: unknown } | undefined {
    assertOffset(position.offset);
    const last = this.checkpoints.get(position.stream);
    if (last !== undefined && isAtOrBelow(position.offset, last)) return { applied: false, value: this.results.get(position.eventId, now) };
    const earlier = this.results.get(position.eventId, now);
    if (earlier === undefined) return undefined;
    this.checkpoints.set(position.stream, position.offset);
    return { applied: false, value: earlier };
  }

  record(position: LedgerPosition, value: unknown, now: number): void {
    this.checkpoints.set(position.stream, position.offset);
    this.results.record(position.eventId, value, now);
  }

  /** Moves a stream's checkpoint forward (never back) past events that changed nothing; answers whether it moved. */
  advance(stream: string, offset: string): boolean {
    assertOffset(offset);
    const last = this.checkpoints.get(stream);
    if (last !== undefined && isAtOrBelow(offset, last)) return false;
    this.checkpoints.set(stream, offset);
    return true;
  }

  resultOf(eventId: string, now: number): unknown {
    return this.results.get(eventId, now);
  }

  nextOffset(stream: string): string | undefined {
    const last = this.checkpoints.get(stream);
    return last === undefined ? undefined : offsetAfter(last);
  }

  state(now: number): LedgerState {
    return { checkpoints: [...this.checkpoints].map(([stream, offset]) => ({ stream, offset })), results: this.results.values(now) };
  }

  restore(state: LedgerState, now: number): void {
    for (const { stream, offset } of state.checkpoints) this.checkpoints.set(stream, offset);
    for (const result of state.results) this.results.restore(result, now);
  }
}
