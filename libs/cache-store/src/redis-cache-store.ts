import Redis from 'ioredis';
import { silentLog, type LogSink } from '@bpc/domain';
import { BodyFiles, DEFAULT_BODY_REMOVAL_DELAY_MS } from './body-files';
import { assertKey, assertStorable, entryField, invalidationFields, newBodyBase, putDecision } from './cache-entry-rules';
import type { CacheEntry, CacheHit, CacheStore, NewCacheEntry, ProjectionPosition, PutResult, StoreResult } from './cache-store.port';
import { DEFAULT_RESULT_TTL_MS, assertOffset, offsetAfter } from './projection-offsets';
import { CACHE_SCRIPTS, type CacheScriptName } from './redis-cache-scripts';

export interface RedisCacheStoreOptions {
  /** `redis://[user:password@]host:port[/db]` */
  readonly url: string;
  /** Every key lives under the hash tag `{<keyPrefix>}:cache:` (default `bpc`). */
  readonly keyPrefix?: string;
  /** Body files live here: a volume shared by every replica. */
  readonly directory: string;
  readonly log?: LogSink;
  /** Give up a connection attempt after this long (default 1,000 ms). */
  readonly connectTimeoutMs?: number;
  /** Reject a command that got no answer within this long (default 2,000 ms). */
  readonly commandTimeoutMs?: number;
  /** Upper bound of the background reconnect backoff (default 2,000 ms). */
  readonly reconnectMaxDelayMs?: number;
  /** How long results of positioned mutations are kept (default 6 hours). */
  readonly resultTtlMs?: number;
  /** Grace period before a replaced or invalidated body file is removed (default 30 s). */
  readonly bodyRemovalDelayMs?: number;
}

/** Redis is unreachable or did not answer in time; the message names the URL and the cause. */
export class CacheStoreUnavailableError extends Error {
  override readonly name = 'CacheStoreUnavailableError';
}

type ScriptRunner = (...args: (string | number)[]) => Promise<unknown>;

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

/** `<kind>|<expiresAt>|<entry JSON>`: the scripts read kind and expiry without decoding JSON. */
function encodeEntry(entry: CacheEntry): string {
  return `${entry.kind}|${entry.expiresAt}|${JSON.stringify(entry)}`;
}

function decodeEntry(value: string): CacheEntry {
  const first = value.indexOf('|');
  const second = value.indexOf('|', first + 1);
  return JSON.parse(value.slice(second + 1)) as CacheEntry;
}

/**
 * Cache store for cluster mode: metadata in Redis (atomic Lua for
 * put-with-render-wins and invalidate-with-count, see
 * `redis-cache-scripts.ts`), bodies as files in a directory shared by every
 * replica. A put writes and fsyncs its body file before the script switches
 * the metadata to it.
 *
 * Failure behaviour, as the Redis queue store: commands fail fast while Redis
 * is unreachable (no offline queue, no retries) and the client reconnects in
 * the background with a capped backoff. Nothing connects before the first call.
 */
export class RedisCacheStore implements CacheStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly safeUrl: string;
  private readonly log: LogSink;
  private readonly resultTtlMs: number;
  private readonly files: BodyFiles;
  private connecting: Promise<void> | undefined;
  private lastConnectionError: string | undefined;
  private unreachable = false;
  private closed = false;

  constructor(options: RedisCacheStoreOptions) {
    this.prefix = `{${options.keyPrefix ?? 'bpc'}}:`;
    this.safeUrl = redactUrl(options.url);
    this.log = options.log ?? silentLog;
    this.resultTtlMs = options.resultTtlMs ?? DEFAULT_RESULT_TTL_MS;
    this.files = new BodyFiles(options.directory, this.log, options.bodyRemovalDelayMs ?? DEFAULT_BODY_REMOVAL_DELAY_MS);
    const maxDelay = options.reconnectMaxDelayMs ?? 2_000;
    this.redis = new Redis(options.url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      // 0: a command in flight when the connection drops fails at once instead of waiting for a reconnect.
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      connectTimeout: options.connectTimeoutMs ?? 1_000,
      commandTimeout: options.commandTimeoutMs ?? 2_000,
      disconnectTimeout: 200,
      retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 10), maxDelay),
    });
    for (const [name, lua] of Object.entries(CACHE_SCRIPTS)) this.redis.defineCommand(name, { numberOfKeys: 1, lua });
    this.redis.on('error', (error: Error) => this.onConnectionLost(error.message));
    this.redis.on('close', () => this.onConnectionLost(this.lastConnectionError ?? 'connection closed'));
    this.redis.on('ready', () => this.onReady());
  }

  async get(hostId: number, url: string, dimensionId: number): Promise<CacheHit | undefined> {
    assertKey(hostId, url, dimensionId);
    const value = await this.call(() => this.redis.hget(this.hostKey(hostId), entryField(dimensionId, url)));
    return value === null ? undefined : this.files.hit(decodeEntry(value));
  }

  async put(incoming: NewCacheEntry, body: Buffer): Promise<PutResult> {
    assertStorable(incoming, body);
    const field = entryField(incoming.dimensionId, incoming.url);
    // Cheap early answer: no file written for a bypass that would lose anyway; the script decides for real.
    if (incoming.kind === 'bypass') {
      const current = await this.call(() => this.redis.hget(this.hostKey(incoming.hostId), field));
      if (current !== null && putDecision(decodeEntry(current), incoming) === 'render-wins') return { stored: false, reason: 'render-wins' };
    }
    const bodyPath = await this.files.write(newBodyBase(incoming, incoming.createdAt), body);
    const entry: CacheEntry = { ...incoming, headers: { ...incoming.headers }, bytes: body.length, bodyPath };
    // If the script fails, whether the switch happened is unknown (e.g. a timeout after Redis ran it): the file is kept, removing it could break a live entry.
    const reply = (await this.runScript('bpcCachePut', this.hostKey(incoming.hostId), [field, incoming.kind, incoming.createdAt, encodeEntry(entry)])) as [number, string];
    const [stored, replaced] = reply;
    if (Number(stored) !== 1) {
      void this.files.removeNow([bodyPath]);
      return { stored: false, reason: 'render-wins' };
    }
    if (replaced) this.files.removeLater([decodeEntry(replaced).bodyPath]);
    return { stored: true, entry };
  }

  async invalidate(hostId: number, urls: readonly string[], dimensionIds: readonly number[], position?: ProjectionPosition): Promise<StoreResult<number>> {
    for (const url of urls) for (const dimensionId of dimensionIds) assertKey(hostId, url, dimensionId);
    if (position) assertOffset(position.offset);
    const positionArgs = position ? [position.stream, position.offset, this.resultKey(position.eventId), this.resultTtlMs] : ['', '', '', this.resultTtlMs];
    const reply = (await this.runScript('bpcCacheInvalidate', this.hostKey(hostId), [
      this.prefix,
      ...positionArgs,
      ...invalidationFields(urls, dimensionIds),
    ])) as [number, ...(string | number | null)[]];
    if (Number(reply[0]) !== 1) {
      const recorded = reply[1];
      return { applied: false, value: recorded === null || recorded === undefined ? undefined : Number(recorded) };
    }
    const dropped = reply.slice(2) as string[];
    this.files.removeLater(dropped.map((value) => decodeEntry(value).bodyPath));
    return { applied: true, value: Number(reply[1]) };
  }

  async resultOf(eventId: string): Promise<unknown | undefined> {
    const value = await this.call(() => this.redis.get(this.resultKey(eventId)));
    return value === null ? undefined : Number(value);
  }

  async nextOffset(stream: string): Promise<string | undefined> {
    const applied = await this.call(() => this.redis.hget(`${this.prefix}cache:checkpoints`, stream));
    return applied === null ? undefined : offsetAfter(applied);
  }

  async check(): Promise<void> {
    await this.call(() => this.redis.ping());
    await this.files.check();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.files.close();
    if (this.redis.status === 'ready') {
      await this.redis.quit().catch(() => this.redis.disconnect());
    } else {
      this.redis.disconnect();
    }
  }

  private hostKey(hostId: number): string {
    return `${this.prefix}cache:e:${hostId}`;
  }

  private resultKey(eventId: string): string {
    return `${this.prefix}cache:r:${eventId}`;
  }

  private runScript(name: CacheScriptName, key: string, args: (string | number)[]): Promise<unknown> {
    const run = (this.redis as unknown as Record<CacheScriptName, ScriptRunner>)[name].bind(this.redis);
    return this.call(() => run(key, ...args));
  }

  /** Runs a command once connected; turns connection failures into a message naming the URL and the cause. */
  private async call<T>(command: () => Promise<T>): Promise<T> {
    if (this.closed) throw new Error(`redis cache store at ${this.safeUrl} is closed`);
    try {
      await this.connectOnce();
      if (this.redis.status !== 'ready') throw new CacheStoreUnavailableError(`redis unreachable at ${this.safeUrl}: ${this.lastConnectionError ?? this.redis.status}`);
      return await command();
    } catch (error) {
      throw this.describe(error);
    }
  }

  private connectOnce(): Promise<void> {
    if (this.connecting) return this.connecting;
    if (this.redis.status !== 'wait') return Promise.resolve();
    this.connecting = this.redis.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private describe(error: unknown): Error {
    if (error instanceof CacheStoreUnavailableError) return error;
    const message = messageOf(error);
    const connectionLost =
      this.redis.status !== 'ready' ||
      /Stream isn't writeable|Connection is closed|max retries per request|Command timed out|ECONNREFUSED|ETIMEDOUT|ECONNRESET/i.test(message);
    if (!connectionLost) return new Error(`redis cache store at ${this.safeUrl}: ${message}`, { cause: error });
    return new CacheStoreUnavailableError(`redis unreachable at ${this.safeUrl}: ${this.lastConnectionError ?? message}`, { cause: error });
  }

  /** Logs the moment Redis becomes unreachable once, not every background reconnect attempt. */
  private onConnectionLost(reason: string): void {
    if (this.closed) return;
    this.lastConnectionError = reason;
    if (this.unreachable) return;
    this.unreachable = true;
    this.log.error({ url: this.safeUrl, err: reason }, 'redis cache store unreachable; reconnecting in the background');
  }

  private onReady(): void {
    this.lastConnectionError = undefined;
    if (!this.unreachable) return;
    this.unreachable = false;
    this.log.info({ url: this.safeUrl }, 'redis cache store reachable again');
  }
}
