import { assertNever, PRIORITIES, type Lease, type Priority, type QueueChange, type QueuedEntry, type QueueTrigger, type QueueView, type RecacheMode } from '@bpc/domain';
import { parseQueueEntryKey } from './queue-call-checks';

/** An entry as the scripts store it: `'<priority>|<attempt>|<mode>|<trigger>|<entryId>'` (older values lack `<trigger>|`). */
function decodeStoredEntry(hostId: number, key: string, value: string, dueAt: number): QueuedEntry {
  const fields = value.split('|');
  const [priority, attempt, mode] = fields;
  const [trigger, entryId] = fields.length >= 5 ? [fields[3], fields.slice(4).join('|')] : ['', fields.slice(3).join('|')];
  return {
    hostId,
    key,
    ...parseQueueEntryKey(key),
    ...(mode ? { mode: mode as RecacheMode } : {}),
    priority: priority as Priority,
    dueAt,
    entryId,
    ...(trigger ? { trigger: trigger as QueueTrigger } : {}),
    attempt: Number(attempt),
  };
}

/**
 * What a host decision (`decidePurge`, `decideSettle`) reads of one host in
 * Redis (the `bpcQueueReadHost` script): the host's version, its number of
 * queued entries per priority and the entries of the keys it names. Anything
 * else was not read, so asking for it is a mistake and throws.
 */
export class RedisHostRead implements QueueView {
  private constructor(
    private readonly hostId: number,
    /** Changes with every change to the host's entries: the decision applies only while it is the same. */
    readonly version: string,
    private readonly totals: ReadonlyMap<Priority, number>,
    private readonly entries: ReadonlyMap<string, QueuedEntry | undefined>,
  ) {}

  /** From the script's reply: version, a total per priority in drain order, then a value and due time per key. */
  static parse(hostId: number, keys: readonly string[], reply: readonly (string | number | null)[]): RedisHostRead {
    const totals = new Map(PRIORITIES.map((priority, p) => [priority, Number(reply[1 + p])]));
    const entries = new Map<string, QueuedEntry | undefined>();
    keys.forEach((key, k) => {
      const at = 1 + PRIORITIES.length + 2 * k;
      const value = reply[at];
      entries.set(key, typeof value === 'string' ? decodeStoredEntry(hostId, key, value, Number(reply[at + 1])) : undefined);
    });
    return new RedisHostRead(hostId, String(reply[0]), totals, entries);
  }

  queued(hostId: number, key: string): QueuedEntry | undefined {
    if (hostId !== this.hostId || !this.entries.has(key)) return notRead(`the entry ${key} of host ${hostId}`);
    return this.entries.get(key);
  }

  queuedCount(hostId: number, priority: Priority): number {
    if (hostId !== this.hostId) return notRead(`the entries of host ${hostId}`);
    return this.totals.get(priority) ?? 0;
  }

  hostsWithEntries(): Iterable<number> {
    return notRead('the hosts');
  }

  firstDue(): readonly QueuedEntry[] {
    return notRead('the due entries');
  }

  lease(): Lease | undefined {
    return notRead('the leases');
  }

  leases(): Iterable<Lease> {
    return notRead('the leases');
  }

  pauses(): Iterable<readonly [number, number]> {
    return notRead('the pauses');
  }

  pausedUntil(): number | undefined {
    return notRead('the pauses');
  }

  get lastServedHost(): number | undefined {
    return notRead('the host served last');
  }
}

function notRead(what: string): never {
  throw new Error(`a host decision read ${what}, which the Redis queue store did not read for it`);
}

/**
 * A decided event as `bpcQueueApply` takes it (a name, then its fields). The
 * queue's other events are applied inside the scripts that decide them
 * atomically (enqueue, claim, retry, release).
 */
export function applyArgs(event: QueueChange): (string | number)[] {
  switch (event.type) {
    case 'entry-removed':
      return [event.type, event.key];
    case 'queues-purged':
      return [event.type, event.priorities.length, ...event.priorities];
    case 'host-paused':
      return [event.type, event.expiresAt];
    case 'pause-lifted':
      return [event.type];
    case 'entries-queued':
    case 'entry-replaced':
    case 'entry-leased':
    case 'lease-ended':
    case 'lease-returned':
      throw new Error(`bpcQueueApply does not apply ${event.type}: the script that decides it does`);
    default:
      return assertNever(event);
  }
}
