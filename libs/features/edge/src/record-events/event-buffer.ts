/** A sealed batch waiting for the log; its events before `first` were dropped. */
interface Waiting<E> {
  readonly events: readonly E[];
  first: number;
}

/**
 * Recorded events (bot requests, render facts) waiting for the event log, at
 * most `capacity` of them: `add` puts an event in the open batch, sealed at
 * `batchMax` events or by `seal`; only sealed batches are taken. Adding beyond `capacity`
 * drops the oldest event and says so, without copying (a dropped event goes
 * when its batch does), so a long outage under load stays cheap; a batch the
 * log refused goes back to the front.
 */
export class EventBuffer<E> {
  /** Sealed batches, oldest first. */
  private readonly sealed: Waiting<E>[] = [];
  private open: E[] = [];
  /** Events of the open batch dropped for room. */
  private openFirst = 0;
  private count = 0;

  constructor(
    readonly capacity: number,
    private readonly batchMax: number,
  ) {}

  get size(): number {
    return this.count;
  }

  /** Adds one event; answers the number of events dropped from the front (0 or 1). */
  add(event: E): number {
    this.open.push(event);
    this.count += 1;
    if (this.open.length === this.batchMax) this.seal();
    return this.dropOverflow();
  }

  /** Removes and answers the oldest sealed batch (up to `batchMax` events); the open batch stays open (see `seal`). */
  take(): readonly E[] | undefined {
    const next = this.sealed.shift();
    if (next === undefined) return undefined;
    this.count -= next.events.length - next.first;
    return next.first === 0 ? next.events : next.events.slice(next.first);
  }

  /** Puts taken batches back at the front, in their order (the log refused them); answers how many of the oldest events did not fit and were dropped. */
  putBack(batches: readonly (readonly E[])[]): number {
    this.sealed.unshift(...batches.map((events) => ({ events, first: 0 })));
    for (const events of batches) this.count += events.length;
    return this.dropOverflow();
  }

  /** Seals the open batch (if it holds events), so that `take` hands it out after those sealed before it. */
  seal(): void {
    if (this.open.length > this.openFirst) this.sealed.push({ events: this.open, first: this.openFirst });
    this.open = [];
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
      if (oldest.first === oldest.events.length) this.sealed.shift();
    }
    return dropped;
  }
}
