import { randomUUID } from 'node:crypto';
import {
  COMPLETION_WINDOW,
  COMPLETION_WINDOW_MS,
  noRecentCompletions,
  PRIORITIES,
  decidePause,
  decidePurge,
  decideResume,
  decideSettle,
  distinctItems,
  emptyHostQueueCounts,
  type HostQueueCounts,
  type Priority,
  type QueueDecision,
  type QueueTrigger,
  type QueueView,
  type RecacheMode,
  type RecentCompletions,
} from '@bpc/domain';
import { silentLog, type LogSink } from '@bpc/support';
import { queueEntryKey as entryKeyOf } from '@bpc/domain';
import { assertOffset, offsetAfter } from '@bpc/projection-state';
import {
  assertClaimRequest,
  assertEnqueueRequest,
  assertFiniteTime,
  assertHostId,
  assertAttemptsMade,
  assertPriorities,
  parseQueueEntryKey,
} from './queue-call-checks';
import type {
  ClaimRequest,
  ClaimedEntry,
  ClaimedKey,
  EnqueueRequest,
  EnqueueResult,
  ProjectionPosition,
  QueueStore,
  StoreResult,
} from './queue-store.port';
import { DEFAULT_RESULT_TTL_MS } from '@bpc/projection-state';
import { QUEUE_SCRIPTS, type QueueScriptName } from './redis-queue-scripts';
import { applyArgs, RedisHostRead } from './redis-host-read';
import { FailFastRedis } from '@bpc/redis-support';

export interface RedisQueueStoreOptions {
  /** `redis://[user:password@]host:port[/db]` */
  readonly url: string;
  /** Every key lives under the hash tag `{<keyPrefix>}:` (default `bpc`), so scripts stay in one cluster slot. */
  readonly keyPrefix?: string;
  readonly log?: LogSink;
  /** Give up a connection attempt after this long (default 1,000 ms). */
  readonly connectTimeoutMs?: number;
  /** Reject a command that got no answer within this long, e.g. from a hung server (default 2,000 ms). */
  readonly commandTimeoutMs?: number;
  /** Upper bound of the background reconnect backoff (default 2,000 ms). */
  readonly reconnectMaxDelayMs?: number;
  /** How long results of positioned mutations are kept (default 6 hours; the port promises at least 1 hour). */
  readonly resultTtlMs?: number;
}

/** Redis is unreachable or did not answer in time; the message names the URL and the cause. */
export { RedisUnavailableError as QueueStoreUnavailableError } from '@bpc/redis-support';

const MODE_LETTER: Record<RecacheMode, string> = { render: 'r', bypass: 'b' };
const CLAIM_FIELDS = 9;
/** `bpcQueueApply`'s answer when the host changed after the decision's read. */
const HOST_CHANGED = -1;
/** Reads and decisions on one host before giving up: each retry means another change landed between read and apply. */
const MAX_DECISION_ROUNDS = 20;

type ScriptReply = unknown;

function parseStoreResult<T>(reply: ScriptReply, fromJson: (value: unknown) => T): StoreResult<T> {
  const [applied, json] = reply as [number, string | null];
  const value = json === null || json === undefined ? undefined : fromJson(JSON.parse(json));
  return applied === 1 ? { applied: true, value: value as T } : { applied: false, value };
}

const asVoid = (): void => undefined;
const asNumber = (value: unknown): number => Number(value);
const asEnqueueResult = (value: unknown): EnqueueResult => value as EnqueueResult;

/**
 * Queue state in Redis (cluster mode), through ioredis. Every mutation is one
 * Lua script, so it is atomic and carries its projection checkpoint with it;
 * see `redis-queue-scripts.ts` for the key layout.
 *
 * Failure behaviour: commands fail fast while Redis is unreachable (no
 * offline queue, no retry of in-flight commands) so callers can answer 500 at
 * once, while the client keeps reconnecting in the background with a capped
 * backoff. Nothing connects before the first call.
 */
export class RedisQueueStore implements QueueStore {
  readonly rebuiltOnStart = false;
  private readonly redis: FailFastRedis;
  private readonly prefix: string;
  private readonly log: LogSink;
  private readonly resultTtlMs: number;

  constructor(options: RedisQueueStoreOptions) {
    this.prefix = `{${options.keyPrefix ?? 'bpc'}}:`;
    this.log = options.log ?? silentLog;
    this.resultTtlMs = options.resultTtlMs ?? DEFAULT_RESULT_TTL_MS;
    this.redis = new FailFastRedis({ ...options, label: 'queue store', scripts: QUEUE_SCRIPTS });
  }

  async enqueue(request: EnqueueRequest, position?: ProjectionPosition): Promise<StoreResult<EnqueueResult>> {
    assertEnqueueRequest(request);
    const items: string[] = [];
    for (const [key, item] of distinctItems(request.items)) items.push(`${item.mode ? MODE_LETTER[item.mode] : '-'}${key}`);
    const reply = await this.runPositioned('bpcQueueEnqueue', position, [
      request.hostId,
      request.priority,
      request.dueAt,
      request.entryId,
      request.trigger ?? '',
      ...items,
    ]);
    return parseStoreResult(reply, asEnqueueResult);
  }

  async purge(hostId: number, priorities: readonly Priority[], position?: ProjectionPosition): Promise<StoreResult<number>> {
    assertHostId(hostId);
    assertPriorities(priorities);
    return this.decideOnHost(hostId, [], position, (view) => decidePurge(view, hostId, priorities), asNumber);
  }

  async pause(hostId: number, expiresAt: number, position?: ProjectionPosition): Promise<StoreResult<void>> {
    assertHostId(hostId);
    assertFiniteTime('expiresAt', expiresAt);
    return parseStoreResult(await this.applyDecision(hostId, undefined, decidePause(hostId, expiresAt), position), asVoid);
  }

  async settle(hostId: number, url: string, dimensionId: number, entryId: string, position?: ProjectionPosition): Promise<StoreResult<boolean>> {
    assertHostId(hostId);
    const key = entryKeyOf(dimensionId, url);
    return this.decideOnHost(hostId, [key], position, (view) => decideSettle(view, hostId, key, entryId), (value) => value === true);
  }

  async resume(hostId: number, position?: ProjectionPosition): Promise<StoreResult<void>> {
    assertHostId(hostId);
    return parseStoreResult(await this.applyDecision(hostId, undefined, decideResume(hostId), position), asVoid);
  }

  /**
   * The domain decides on what it read of the host (`bpcQueueReadHost`), and
   * `bpcQueueApply` applies its events only while the host is as read;
   * otherwise the host changed in between (a claim, an enqueue) and it reads
   * and decides again.
   */
  private async decideOnHost<T>(hostId: number, keys: readonly string[], position: ProjectionPosition | undefined, decide: (view: QueueView) => QueueDecision<T>, fromJson: (value: unknown) => T): Promise<StoreResult<T>> {
    for (let round = 1; round <= MAX_DECISION_ROUNDS; round++) {
      const read = RedisHostRead.parse(hostId, keys, (await this.runScript('bpcQueueReadHost', [hostId, ...keys])) as (string | number | null)[]);
      const reply = await this.applyDecision(hostId, read.version, decide(read), position);
      if ((reply as [number])[0] !== HOST_CHANGED) return parseStoreResult(reply, fromJson);
    }
    throw new Error(`queue host ${hostId} changed under ${MAX_DECISION_ROUNDS} decisions in a row`);
  }

  /** `version`: of the read the decision was made on; undefined when it read nothing. */
  private applyDecision<T>(hostId: number, version: string | undefined, decision: QueueDecision<T>, position: ProjectionPosition | undefined): Promise<ScriptReply> {
    const result = JSON.stringify(decision.result ?? null);
    return this.runPositioned('bpcQueueApply', position, [hostId, version ?? '', result, ...decision.events.flatMap(applyArgs)]);
  }

  async pausedHosts(now: number): Promise<ReadonlyMap<number, number>> {
    assertFiniteTime('now', now);
    const flat = (await this.runScript('bpcQueuePausedHosts', [now])) as string[];
    const paused = new Map<number, number>();
    for (let i = 0; i < flat.length; i += 2) paused.set(Number(flat[i]), Number(flat[i + 1]));
    return paused;
  }

  /** One script call: ZCARD and ZCOUNT per host and priority, so the cost follows hosts, not entries. */
  async counts(now: number, hostIds: readonly number[] = []): Promise<ReadonlyMap<number, HostQueueCounts>> {
    assertFiniteTime('now', now);
    hostIds.forEach(assertHostId);
    const flat = (await this.runScript('bpcQueueCounts', [now, ...hostIds])) as (string | number)[];
    const counts = new Map<number, HostQueueCounts>();
    const stride = 1 + 2 * PRIORITIES.length;
    for (let i = 0; i < flat.length; i += stride) {
      const host = emptyHostQueueCounts();
      PRIORITIES.forEach((priority, p) => {
        host[priority] = { total: Number(flat[i + 1 + 2 * p]), due_now: Number(flat[i + 2 + 2 * p]) };
      });
      counts.set(Number(flat[i]), host);
    }
    return counts;
  }

  /**
   * Atomically: expired leases back to their queues, then up to `limit` due
   * entries of hosts not paused at `now`, high before normal before
   * autorecache, round-robin across hosts starting after the host served last
   * by the previous claim. Each claim gets a unique id (a per-call random base
   * plus a counter) and is leased until `now + leaseMs`. A host whose pause
   * cannot be read (its stored deadline is not a number) is drained and logged
   * as an error, as the daemon specification asks of a failed pause read.
   */
  async claim(request: ClaimRequest): Promise<ClaimedEntry[]> {
    assertClaimRequest(request);
    const leaseUntil = request.now + request.leaseMs;
    const [requeued, unreadablePauses, ...flat] = (await this.runScript('bpcQueueClaim', [request.now, request.limit, leaseUntil, randomUUID()])) as (string | number)[];
    if (Number(requeued) > 0) this.log.warn({ requeued: Number(requeued) }, 'queue claim leases expired; entries returned to their queues');
    if (unreadablePauses !== '') this.log.error({ hosts: String(unreadablePauses).split(',').map(Number) }, 'host pause unreadable (not a deadline): draining the host this tick');
    const claimed: ClaimedEntry[] = [];
    for (let i = 0; i < flat.length; i += CLAIM_FIELDS) claimed.push(this.toClaimedEntry(flat.slice(i, i + CLAIM_FIELDS)));
    return claimed;
  }

  async complete(entry: ClaimedEntry, now = Date.now()): Promise<void> {
    await this.release(entry, now);
  }

  /**
   * Back to the queue with one more attempt. When a newer request queued the
   * same key meanwhile, that queued entry survives (its id and attempt count:
   * the newer request earns a fresh set of attempts) with the higher priority
   * and the earlier due time of the two.
   */
  async retryLater(entry: ClaimedEntry, dueAt: number, attemptsMade = 1): Promise<void> {
    assertFiniteTime('dueAt', dueAt);
    assertAttemptsMade(attemptsMade);
    await this.runScript('bpcQueueRetry', [entry.claimId, dueAt, attemptsMade]);
  }

  async giveUp(entry: ClaimedEntry, now = Date.now()): Promise<void> {
    await this.release(entry, now);
  }

  /** One script call over a few small hashes per host (at most one field per minute of the window). */
  async recentCompletions(now: number, hostIds: readonly number[]): Promise<ReadonlyMap<number, RecentCompletions>> {
    assertFiniteTime('now', now);
    hostIds.forEach(assertHostId);
    const recent = new Map<number, RecentCompletions>();
    if (hostIds.length === 0) return recent;
    const flat = (await this.runScript('bpcQueueRecentCompletions', [now, COMPLETION_WINDOW.bucketMs, COMPLETION_WINDOW_MS, ...hostIds])) as (string | number)[];
    const stride = 1 + PRIORITIES.length;
    for (let i = 0; i < flat.length; i += stride) {
      const counts = noRecentCompletions();
      PRIORITIES.forEach((priority, p) => (counts[priority] = Number(flat[i + 1 + p])));
      recent.set(Number(flat[i]), counts);
    }
    return recent;
  }

  async claimedKeys(hostId: number, now: number): Promise<readonly ClaimedKey[]> {
    assertHostId(hostId);
    assertFiniteTime('now', now);
    const keys = (await this.runScript('bpcQueueClaimedKeys', [hostId, now])) as string[];
    return keys.map((key) => parseQueueEntryKey(key));
  }

  private async release(entry: ClaimedEntry, now: number): Promise<void> {
    assertFiniteTime('now', now);
    await this.runScript('bpcQueueRelease', [entry.claimId, now, COMPLETION_WINDOW.bucketMs, COMPLETION_WINDOW_MS]);
  }

  async resultOf(eventId: string): Promise<unknown | undefined> {
    const json = await this.redis.call((r) => r.get(this.resultKey(eventId)));
    // A void mutation records `null`: applied, with nothing to tell.
    return json === null ? undefined : JSON.parse(json);
  }

  async nextOffset(stream: string): Promise<string | undefined> {
    const applied = await this.redis.call((r) => r.hget(`${this.prefix}checkpoints`, stream));
    return applied === null ? undefined : offsetAfter(applied);
  }

  async check(): Promise<void> {
    await this.redis.call((r) => r.ping());
  }

  async close(): Promise<void> {
    await this.redis.close();
  }


  private resultKey(eventId: string): string {
    return `${this.prefix}r:${eventId}`;
  }

  private runPositioned(name: QueueScriptName, position: ProjectionPosition | undefined, args: (string | number)[]): Promise<ScriptReply> {
    if (position) assertOffset(position.offset);
    const positionArgs = position
      ? [position.stream, position.offset, this.resultKey(position.eventId), this.resultTtlMs]
      : ['', '', '', this.resultTtlMs];
    return this.runScript(name, [...positionArgs, ...args]);
  }

  private runScript(name: QueueScriptName, args: (string | number)[]): Promise<ScriptReply> {
    return this.redis.runScript(name, `${this.prefix}hosts`, [this.prefix, ...args]);
  }

  private toClaimedEntry(fields: (string | number)[]): ClaimedEntry {
    const [claimId, hostId, key, priority, attempt, mode, entryId, leaseUntil, trigger] = fields.map(String);
    const { dimensionId, url } = parseQueueEntryKey(key);
    return {
      hostId: Number(hostId),
      url,
      dimensionId,
      priority: priority as Priority,
      ...(mode ? { mode: mode as RecacheMode } : {}),
      entryId,
      ...(trigger ? { trigger: trigger as QueueTrigger } : {}),
      attempt: Number(attempt),
      claimId,
      leaseUntil: Number(leaseUntil),
    };
  }
}
