import { columnsFrom, RecordedBotRequest, RecordedBotRequestColumns, RecordedBotRequests, requestCount } from '@bpc/events';

/** A sealed batch waiting for the log; its requests before `first` were dropped. */
interface Waiting {
  readonly columns: RecordedBotRequestColumns;
  first: number;
}

/**
 * Recorded bot requests waiting for the event log, at most `capacity` of
 * them, captured as columns (see `RecordedBotRequests`): `add` stores a
 * request's fields while its values are at hand, and a batch is sealed at
 * `batchMax` requests or by `seal`; only sealed batches are taken. Adding
 * beyond `capacity` drops the oldest request and says so, without copying
 * (a dropped request's columns go when its batch does), so a long outage
 * under load stays cheap; a batch the log refused goes back to the front.
 */
export class BotRequestBuffer {
  /** Sealed batches, oldest first. */
  private readonly sealed: Waiting[] = [];
  private open?: RecordedBotRequests;
  /** Requests of the open batch dropped for room. */
  private openFirst = 0;
  private count = 0;
  /** Requests the batch sealed last held. */
  private lastSealed = 0;

  constructor(
    readonly capacity: number,
    private readonly batchMax: number,
    /** Event ids of this buffer's requests (see `BotRequestEventIds`). */
    private readonly idPrefix: string,
  ) {}

  get size(): number {
    return this.count;
  }

  /** Adds one request, its event numbered `seq`; answers the number of requests dropped from the front (0 or 1). Throws, adding nothing, for a request that cannot be recorded. */
  add(request: RecordedBotRequest, seq: number): number {
    // Room for as many requests as the last batch held: under load, growing by doubling copies every request about once more.
    const open = (this.open ??= new RecordedBotRequests(this.idPrefix, Math.min(this.batchMax, this.lastSealed)));
    open.add(request, seq);
    this.count += 1;
    if (open.count === this.batchMax) this.seal();
    return this.dropOverflow();
  }

  /** Removes and answers the oldest sealed batch (up to `batchMax` requests); the open batch stays open (see `seal`). */
  take(): RecordedBotRequestColumns | undefined {
    const next = this.sealed.shift();
    if (next === undefined) return undefined;
    this.count -= requestCount(next.columns) - next.first;
    return columnsFrom(next.columns, next.first);
  }

  /** Puts taken batches back at the front, in their order (the log refused them); answers how many of the oldest requests did not fit and were dropped. */
  putBack(batches: readonly RecordedBotRequestColumns[]): number {
    this.sealed.unshift(...batches.map((columns) => ({ columns, first: 0 })));
    for (const columns of batches) this.count += requestCount(columns);
    return this.dropOverflow();
  }

  /** Seals the open batch (if it holds requests), so that `take` hands it out after those sealed before it. */
  seal(): void {
    if (this.open && this.open.count > this.openFirst) {
      this.sealed.push({ columns: this.open.columns(), first: this.openFirst });
      this.lastSealed = this.open.count;
    }
    this.open = undefined;
    this.openFirst = 0;
  }

  private dropOverflow(): number {
    let dropped = 0;
    for (; this.count > this.capacity; this.count -= 1, dropped += 1) {
      const oldest = this.sealed[0];
      if (oldest === undefined) {
        this.openFirst += 1;
        continue;
      }
      oldest.first += 1;
      if (oldest.first === requestCount(oldest.columns)) this.sealed.shift();
    }
    return dropped;
  }
}
