import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import {
  PRIORITIES,
  emptyHostQueueCounts,
  silentLog,
  type HostQueueCounts,
  type LogSink,
  type Priority,
  type RecacheMode,
} from '@bpc/domain';
import { queueEntryKey as entryKeyOf } from '@bpc/domain';
import { assertOffset, offsetAfter } from './projection-offsets';
import {
  assertClaimRequest,
  assertEnqueueRequest,
  assertFiniteTime,
  assertHostId,
  assertPriorities,
  distinctItems,
  distinctPriorities,
  parseQueueEntryKey,
} from './queue-entry-rules';
import type {
  ClaimRequest,
  ClaimedEntry,
  EnqueueRequest,
  EnqueueResult,
  ProjectionPosition,
  QueueStore,
  StoreResult,
} from './queue-store.port';
import { DEFAULT_RESULT_TTL_MS } from './recorded-results';
import { QUEUE_SCRIPTS, type QueueScriptName } from './redis-queue-scripts';

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
export class QueueStoreUnavailableError extends Error {
  override readonly name = 'QueueStoreUnavailableError';
}

const MODE_LETTER: Record<RecacheMode, string> = { render: 'r', bypass: 'b' };
const CLAIM_FIELDS = 8;

type ScriptReply = unknown;
type ScriptRunner = (...args: (string | number)[]) => Promise<ScriptReply>;

/** The URL without credentials, for messages and logs. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

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
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly safeUrl: string;
  private readonly log: LogSink;
  private readonly resultTtlMs: number;
  private connecting: Promise<void> | undefined;
  private lastConnectionError: string | undefined;
  private unreachable = false;
  private closed = false;

  constructor(options: RedisQueueStoreOptions) {
    this.prefix = `{${options.keyPrefix ?? 'bpc'}}:`;
    this.safeUrl = redactUrl(options.url);
    this.log = options.log ?? silentLog;
    this.resultTtlMs = options.resultTtlMs ?? DEFAULT_RESULT_TTL_MS;
    const maxDelay = options.reconnectMaxDelayMs ?? 2_000;
    this.redis = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      // 0: a command in flight when the connection drops fails at once instead of waiting for a reconnect.
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      connectTimeout: options.connectTimeoutMs ?? 1_000,
      commandTimeout: options.commandTimeoutMs ?? 2_000,
      // Bounds how long close() keeps a timer alive for a socket that already died.
      disconnectTimeout: 200,
      retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 10), maxDelay),
    });
    for (const [name, lua] of Object.entries(QUEUE_SCRIPTS)) this.redis.defineCommand(name, { numberOfKeys: 1, lua });
    this.redis.on('error', (error: Error) => this.onConnectionLost(error.message));
    // A server shutting down closes the socket without an 'error'; the reconnect attempts then say more.
    this.redis.on('close', () => this.onConnectionLost(this.lastConnectionError ?? 'connection closed'));
    this.redis.on('ready', () => this.onReady());
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
      ...items,
    ]);
    return parseStoreResult(reply, asEnqueueResult);
  }

  async purge(hostId: number, priorities: readonly Priority[], position?: ProjectionPosition): Promise<StoreResult<number>> {
    assertHostId(hostId);
    assertPriorities(priorities);
    const reply = await this.runPositioned('bpcQueuePurge', position, [hostId, ...distinctPriorities(priorities)]);
    return parseStoreResult(reply, asNumber);
  }

  async pause(hostId: number, expiresAt: number, position?: ProjectionPosition): Promise<StoreResult<void>> {
    assertHostId(hostId);
    assertFiniteTime('expiresAt', expiresAt);
    return parseStoreResult(await this.runPositioned('bpcQueuePause', position, [hostId, expiresAt]), asVoid);
  }

  async settle(hostId: number, url: string, dimensionId: number, entryId: string, position?: ProjectionPosition): Promise<StoreResult<boolean>> {
    assertHostId(hostId);
    const key = entryKeyOf(dimensionId, url);
    return parseStoreResult(await this.runPositioned('bpcQueueSettle', position, [hostId, key, entryId]), (value) => value === true);
  }

  async resume(hostId: number, position?: ProjectionPosition): Promise<StoreResult<void>> {
    assertHostId(hostId);
    return parseStoreResult(await this.runPositioned('bpcQueueResume', position, [hostId]), asVoid);
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
   * plus a counter) and is leased until `now + leaseMs`.
   */
  async claim(request: ClaimRequest): Promise<ClaimedEntry[]> {
    assertClaimRequest(request);
    const leaseUntil = request.now + request.leaseMs;
    const [requeued, ...flat] = (await this.runScript('bpcQueueClaim', [request.now, request.limit, leaseUntil, randomUUID()])) as (string | number)[];
    if (Number(requeued) > 0) this.log.warn({ requeued: Number(requeued) }, 'queue claim leases expired; entries returned to their queues');
    const claimed: ClaimedEntry[] = [];
    for (let i = 0; i < flat.length; i += CLAIM_FIELDS) claimed.push(this.toClaimedEntry(flat.slice(i, i + CLAIM_FIELDS)));
    return claimed;
  }

  async complete(entry: ClaimedEntry): Promise<void> {
    await this.runScript('bpcQueueRelease', [entry.claimId]);
  }

  /**
   * Back to the queue with one more attempt. When a newer request queued the
   * same key meanwhile, that queued entry survives (its id and attempt count:
   * the newer request earns a fresh set of attempts) with the higher priority
   * and the earlier due time of the two.
   */
  async retryLater(entry: ClaimedEntry, dueAt: number): Promise<void> {
    assertFiniteTime('dueAt', dueAt);
    await this.runScript('bpcQueueRetry', [entry.claimId, dueAt]);
  }

  async giveUp(entry: ClaimedEntry): Promise<void> {
    await this.runScript('bpcQueueRelease', [entry.claimId]);
  }

  async resultOf(eventId: string): Promise<unknown | undefined> {
    const json = await this.call(() => this.redis.get(this.resultKey(eventId)));
    // A void mutation records `null`: applied, with nothing to tell.
    return json === null ? undefined : JSON.parse(json);
  }

  async nextOffset(stream: string): Promise<string | undefined> {
    const applied = await this.call(() => this.redis.hget(`${this.prefix}checkpoints`, stream));
    return applied === null ? undefined : offsetAfter(applied);
  }

  async check(): Promise<void> {
    await this.call(() => this.redis.ping());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.redis.status === 'ready') {
      await this.redis.quit().catch(() => this.redis.disconnect());
    } else {
      this.redis.disconnect();
    }
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
    const run = (this.redis as unknown as Record<QueueScriptName, ScriptRunner>)[name].bind(this.redis);
    return this.call(() => run(`${this.prefix}hosts`, this.prefix, ...args));
  }

  /** Runs a command once connected; turns connection failures into a message naming the URL and the cause. */
  private async call<T>(command: () => Promise<T>): Promise<T> {
    if (this.closed) throw new Error(`redis queue store at ${this.safeUrl} is closed`);
    try {
      await this.connectOnce();
      // Fail here rather than in ioredis: a command it rejects while offline still leaves its timeout timer running.
      if (this.redis.status !== 'ready') throw new QueueStoreUnavailableError(`redis unreachable at ${this.safeUrl}: ${this.lastConnectionError ?? this.redis.status}`);
      return await command();
    } catch (error) {
      throw this.describe(error);
    }
  }

  /** The first call connects; afterwards ioredis reconnects by itself and calls fail fast meanwhile. */
  private connectOnce(): Promise<void> {
    // Calls made while the first connection is being set up wait for it rather than fail.
    if (this.connecting) return this.connecting;
    if (this.redis.status !== 'wait') return Promise.resolve();
    this.connecting = this.redis.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private describe(error: unknown): Error {
    if (error instanceof QueueStoreUnavailableError) return error;
    const message = messageOf(error);
    const connectionLost =
      this.redis.status !== 'ready' ||
      /Stream isn't writeable|Connection is closed|max retries per request|Command timed out|ECONNREFUSED|ETIMEDOUT|ECONNRESET/i.test(message);
    if (!connectionLost) return new Error(`redis queue store at ${this.safeUrl}: ${message}`, { cause: error });
    const reason = this.lastConnectionError ?? message;
    return new QueueStoreUnavailableError(`redis unreachable at ${this.safeUrl}: ${reason}`, { cause: error });
  }

  /** Logs the moment Redis becomes unreachable once, not every background reconnect attempt. */
  private onConnectionLost(reason: string): void {
    if (this.closed) return;
    this.lastConnectionError = reason;
    if (this.unreachable) return;
    this.unreachable = true;
    this.log.error({ url: this.safeUrl, err: reason }, 'redis queue store unreachable; reconnecting in the background');
  }

  private onReady(): void {
    this.lastConnectionError = undefined;
    if (!this.unreachable) return;
    this.unreachable = false;
    this.log.info({ url: this.safeUrl }, 'redis queue store reachable again');
  }

  private toClaimedEntry(fields: (string | number)[]): ClaimedEntry {
    const [claimId, hostId, key, priority, attempt, mode, entryId, leaseUntil] = fields.map(String);
    const { dimensionId, url } = parseQueueEntryKey(key);
    return {
      hostId: Number(hostId),
      url,
      dimensionId,
      priority: priority as Priority,
      ...(mode ? { mode: mode as RecacheMode } : {}),
      entryId,
      attempt: Number(attempt),
      claimId,
      leaseUntil: Number(leaseUntil),
    };
  }
}
