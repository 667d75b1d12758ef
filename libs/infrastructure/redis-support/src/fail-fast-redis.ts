import Redis, { type RedisOptions } from 'ioredis';
import { silentLog, type LogSink } from '@bpc/support';

export interface FailFastRedisOptions {
  /** `redis://[user:password@]host:port[/db]` */
  readonly url: string;
  /** What uses the connection, for messages and logs (`queue store`, `cache store`). */
  readonly label: string;
  /** Lua scripts defined as commands, each taking one key (the hash-tagged prefix's key). */
  readonly scripts: Readonly<Record<string, string>>;
  readonly log?: LogSink;
  /** Give up a connection attempt after this long (default 3,000 ms). */
  readonly connectTimeoutMs?: number;
  /** Reject a command that got no answer within this long, e.g. from a hung server (default 2,000 ms). */
  readonly commandTimeoutMs?: number;
  /** Upper bound of the background reconnect backoff (default 2,000 ms). */
  readonly reconnectMaxDelayMs?: number;
  /**
   * Sends the commands issued in one event-loop turn as one pipeline (ioredis
   * auto-pipelining): one write and one server wake-up for many concurrent
   * calls. For hot read paths; off by default. Against a server that hangs
   * (not one that is down), a command queued behind a pipeline in flight can
   * take up to two command timeouts to fail.
   */
  readonly autoPipelining?: boolean;
}

/** Redis is unreachable or did not answer in time; the message names the URL and the cause. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

type ScriptRunner = (...args: (string | number)[]) => Promise<unknown>;

/**
 * One ioredis connection that fails fast: while Redis is unreachable every
 * command rejects at once with RedisUnavailableError (no offline queue, no
 * retry of in-flight commands), so callers can answer 500 immediately, while
 * the client reconnects in the background with a capped backoff. Nothing
 * connects before the first call; the outage and the recovery are logged once.
 */
export class FailFastRedis {
  readonly client: Redis;
  readonly safeUrl: string;
  private readonly log: LogSink;
  private connecting: Promise<void> | undefined;
  private lastConnectionError: string | undefined;
  private unreachable = false;
  private closed = false;

  constructor(private readonly options: FailFastRedisOptions) {
    this.safeUrl = redactUrl(options.url);
    this.log = options.log ?? silentLog;
    this.client = new Redis(options.url, {
      ...failFastOptions(options),
      autoResendUnfulfilledCommands: false,
      commandTimeout: options.commandTimeoutMs ?? 2_000,
      enableAutoPipelining: options.autoPipelining ?? false,
    });
    for (const [name, lua] of Object.entries(options.scripts)) this.client.defineCommand(name, { numberOfKeys: 1, lua });
    this.client.on('error', (error: Error) => this.onConnectionLost(error.message));
    // A server shutting down closes the socket without an 'error'; the reconnect attempts then say more.
    this.client.on('close', () => this.onConnectionLost(this.lastConnectionError ?? 'connection closed'));
    this.client.on('ready', () => this.onReady());
  }

  /** Runs a command once connected; turns connection failures into a message naming the URL and the cause. */
  async call<T>(command: (client: Redis) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error(`redis ${this.options.label} at ${this.safeUrl} is closed`);
    try {
      await this.connectOnce();
      // Fail here rather than in ioredis: a command it rejects while offline still leaves its timeout timer running.
      if (this.client.status !== 'ready') throw new RedisUnavailableError(`redis unreachable at ${this.safeUrl}: ${this.lastConnectionError ?? this.client.status}`);
      return await command(this.client);
    } catch (error) {
      throw this.describe(error);
    }
  }

  /** Runs a script defined from `options.scripts`. */
  runScript(name: string, key: string, args: readonly (string | number)[]): Promise<unknown> {
    return this.call((client) => {
      const run = (client as unknown as Record<string, ScriptRunner>)[name];
      return run.call(client, key, ...args);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.client.status === 'ready') await this.client.quit().catch(() => this.client.disconnect());
    else this.client.disconnect();
  }

  /** The first call connects; afterwards ioredis reconnects by itself and calls fail fast meanwhile. */
  private connectOnce(): Promise<void> {
    // Calls made while the first connection is being set up wait for it rather than fail.
    if (this.connecting) return this.connecting;
    if (this.client.status !== 'wait') return Promise.resolve();
    this.connecting = this.client.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private describe(error: unknown): Error {
    if (error instanceof RedisUnavailableError) return error;
    const message = error instanceof Error ? error.message : String(error);
    const connectionLost =
      this.client.status !== 'ready' ||
      /Stream isn't writeable|Connection is closed|max retries per request|Command timed out|ECONNREFUSED|ETIMEDOUT|ECONNRESET/i.test(message);
    if (!connectionLost) return new Error(`redis ${this.options.label} at ${this.safeUrl}: ${message}`, { cause: error });
    return new RedisUnavailableError(`redis unreachable at ${this.safeUrl}: ${this.lastConnectionError ?? message}`, { cause: error });
  }

  /** Logs the moment Redis becomes unreachable once, not every background reconnect attempt. */
  private onConnectionLost(reason: string): void {
    if (this.closed) return;
    this.lastConnectionError = reason;
    if (this.unreachable) return;
    this.unreachable = true;
    this.log.error({ url: this.safeUrl, err: reason }, `redis ${this.options.label} unreachable; reconnecting in the background`);
  }

  private onReady(): void {
    this.lastConnectionError = undefined;
    if (!this.unreachable) return;
    this.unreachable = false;
    this.log.info({ url: this.safeUrl }, `redis ${this.options.label} reachable again`);
  }
}

/**
 * ioredis options of every connection here: nothing connects before it is
 * asked to, commands fail at once while disconnected (no offline queue, no
 * retries), and the client reconnects in the background with a capped backoff.
 */
export function failFastOptions(options: { readonly connectTimeoutMs?: number; readonly reconnectMaxDelayMs?: number }): RedisOptions {
  const maxDelay = options.reconnectMaxDelayMs ?? 2_000;
  return {
    // ioredis 6 speaks RESP3 by default. The cache store's key tracking takes
    // invalidations as RESP2 pub/sub messages on a redirect connection (they
    // arrive in another shape under RESP3), and nothing else here uses a
    // RESP3 type: every connection stays on RESP2, as with ioredis 5.
    protocol: 2,
    lazyConnect: true,
    enableOfflineQueue: false,
    // 0: a command in flight when the connection drops fails at once instead of waiting for a reconnect.
    maxRetriesPerRequest: 0,
    // A refused connection fails at once whatever this is; the timeout only ends
    // attempts nothing answers. At 1 s an event loop stalled that long by a busy
    // host (the timer runs before the socket's connect event) failed a first
    // request against a Redis that was up.
    connectTimeout: options.connectTimeoutMs ?? 3_000,
    // Bounds how long close() keeps a timer alive for a socket that already died.
    disconnectTimeout: 200,
    retryStrategy: (attempt) => Math.min(50 * 2 ** Math.min(attempt, 10), maxDelay),
  };
}

/** The URL without credentials, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString().replace(/\/$/, '');
  } catch {
    return url;
  }
}
