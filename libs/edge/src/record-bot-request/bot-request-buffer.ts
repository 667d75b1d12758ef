import { BotRequestJsonBatch, EncodedEventBatch, RecordedBotRequest } from '@bpc/events';

/** Least room, in events, a new batch starts with (it grows by doubling). */
const BATCH_ROOM_EVENTS = 64;

/** A batch waiting for the log; its events before `first` were dropped. */
interface Waiting {
  readonly batch: EncodedEventBatch;
  first: number;
}

/**
 * Recorded bot requests waiting for the event log, at most `capacity` of
 * them, already serialised: `add` writes each request's event into the open
 * batch while its values are at hand (cheaper than keeping objects alive
 * until the append and cloning them into another thread), and a batch is
 * sealed at `batchMax` events or by `seal`; only sealed batches are taken.
 * Adding beyond `capacity` drops the oldest event and says so, without
 * copying (a dropped event's bytes go when its batch does), so a long outage
 * under load stays cheap; a batch the log refused goes back to the front.
 */
export class BotRequestBuffer {
  /** Sealed batches, oldest first. */
  private readonly sealed: Waiting[] = [];
  private open?: BotRequestJsonBatch;
  /** Events of the open batch dropped for room. */
  private openFirst = 0;
  private count = 0;
  /** Events the batch sealed last held. */
  private lastSealed = 0;

  constructor(
    readonly capacity: number,
    private readonly batchMax: number,
  ) {}

  get size(): number {
    return this.count;
  }

  /** Adds one request's event; answers the number of events dropped from the front (0 or 1). Throws, adding nothing, for a request that has no JSON. */
  add(id: string, request: RecordedBotRequest): number {
    // Room for as many events as the last batch held, at least a few: at low traffic a batch holds a handful; under load, growing it by doubling copied every event about once more.
    const open = (this.open ??= new BotRequestJsonBatch(Math.min(this.batchMax, Math.max(BATCH_ROOM_EVENTS, this.lastSealed))));
    open.add(id, request);
    this.count += 1;
    if (open.count === this.batchMax) this.seal();
    return this.dropOverflow();
  }

  /** Removes and answers the oldest sealed batch (up to `batchMax` events); the open batch stays open (see `seal`). */
  take(): EncodedEventBatch | undefined {
    const next = this.sealed.shift();
    if (next === undefined) return undefined;
    this.count -= next.batch.ids.length - next.first;
    return eventsFrom(next.batch, next.first);
  }

  /** Puts a taken batch back at the front (the log refused it); answers how many of its oldest events did not fit and were dropped. */
  putBack(batch: EncodedEventBatch): number {
    this.sealed.unshift({ batch, first: 0 });
    this.count += batch.ids.length;
    return this.dropOverflow();
  }

  /** Seals the open batch (if it holds events), so that `take` hands it out after those sealed before it. */
  seal(): void {
    if (this.open && this.open.count > this.openFirst) {
      this.sealed.push({ batch: this.open.encoded(), first: this.openFirst });
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
      if (oldest.first === oldest.batch.ids.length) this.sealed.shift();
    }
    return dropped;
  }
}

/** The batch without its first `first` events. */
function eventsFrom(batch: EncodedEventBatch, first: number): EncodedEventBatch {
  if (first === 0) return batch;
  const start = batch.ends[first - 1];
  return { ...batch, bytes: batch.bytes.subarray(start), ends: batch.ends.slice(first).map((end) => end - start), ids: batch.ids.slice(first), keys: batch.keys.slice(first) };
}
