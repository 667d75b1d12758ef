import Redis from 'ioredis';
import { silentLog, type LogSink } from '@bpc/support';
import { failFastOptions, redactUrl } from './fail-fast-redis';

export interface RedisKeyTrackingOptions {
  /** `redis://[user:password@]host:port[/db]` */
  readonly url: string;
  /** Every key starting with this is followed. */
  readonly prefix: string;
  /** What follows the keys, for logs (`cache store`). */
  readonly label: string;
  readonly log?: LogSink;
  /** Give up a connection attempt after this long (default 1,000 ms). */
  readonly connectTimeoutMs?: number;
  /** Upper bound of the background reconnect backoff (default 2,000 ms). */
  readonly reconnectMaxDelayMs?: number;
}

export interface KeyChanges {
  /** Following started (true) or stopped (false): what was known before is void either way. */
  following(live: boolean): void;
  /** These keys changed (were written, deleted, expired or evicted); null: every key (a flush). */
  changed(keys: readonly string[] | null): void;
}

const INVALIDATE_CHANNEL = '__redis__:invalidate';
/** While following, the connection is checked this often; one that does not answer within the same time is dropped. */
const PING_EVERY_MS = 1_000;
/** Setup errors that retrying cannot fix: the server lacks tracking (before Redis 6) or the ACL forbids it. */
const REFUSED = /unknown (sub)?command|NOPERM|no permissions/i;

/**
 * Follows every change to the keys under a prefix, with Redis' server-assisted
 * client-side caching in broadcasting mode: one connection of its own turns
 * tracking on (`CLIENT TRACKING ON REDIRECT <itself> BCAST PREFIX …`, RESP2)
 * and subscribes to the invalidation channel, so Redis reports each change
 * to a tracked key, whoever made it. Redis sends the report before it
 * answers the writer, but on this connection: a reader in another process
 * learns of the change once it has read the report (typically well under a
 * millisecond later), not before the writer's caller goes on.
 *
 * Tracking lives and dies with the connection: `following(false)` is told as
 * soon as it drops, or stays silent to a ping for a second (a connection can
 * die without closing, e.g. behind a NAT that forgot it), and
 * `following(true)` only once it is set up again (the client reconnects in
 * the background). A server that refuses tracking (no `CLIENT TRACKING`
 * before Redis 6, or an ACL without it) is logged once and left alone:
 * nothing is followed then, and readers simply keep asking Redis.
 */
export class RedisKeyTracking {
  private readonly client: Redis;
  private readonly log: LogSink;
  private readonly safeUrl: string;
  private started = false;
  private closed = false;
  private live = false;
  /** Bumped per connection, so a setup that outlived its connection does not go live. */
  private connection = 0;
  private pinger?: NodeJS.Timeout;

  constructor(
    private readonly options: RedisKeyTrackingOptions,
    private readonly changes: KeyChanges,
  ) {
    this.log = options.log ?? silentLog;
    this.safeUrl = redactUrl(options.url);
    // Set up again by hand on each connection (a new client id), not resubscribed by ioredis.
    this.client = new Redis(options.url, { ...failFastOptions(options), autoResubscribe: false });
    // Outages are logged by the store's own connection; this one only stops following.
    this.client.on('error', () => this.stopFollowing());
    this.client.on('close', () => this.stopFollowing());
    this.client.on('ready', () => void this.track(++this.connection));
    this.client.on('messageBuffer', (channel: Buffer, message: Buffer[] | Buffer | null) => this.onMessage(channel, message));
  }

  /** Connects in the background (once); until tracking is set up nothing is followed. */
  start(): void {
    if (this.started || this.closed) return;
    this.started = true;
    this.client.connect().catch(() => undefined);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopFollowing();
    this.client.disconnect();
  }

  private async track(connection: number): Promise<void> {
    try {
      const id = await this.client.client('ID');
      await this.client.call('CLIENT', 'TRACKING', 'ON', 'REDIRECT', String(id), 'BCAST', 'PREFIX', this.options.prefix);
      await this.client.subscribe(INVALIDATE_CHANNEL);
    } catch (error) {
      if (connection !== this.connection || this.client.status !== 'ready') return;
      const reason = error instanceof Error ? error.message : String(error);
      if (!REFUSED.test(reason)) {
        // Anything else (a busy server, say) may pass: set up again on a new connection.
        this.client.disconnect(true);
        return;
      }
      this.log.warn({ url: this.safeUrl, err: reason }, `redis ${this.options.label}: key tracking refused; reading every entry from Redis`);
      this.closed = true;
      this.client.disconnect();
      return;
    }
    if (connection !== this.connection || this.closed || this.client.status !== 'ready') return;
    this.live = true;
    this.pinger = setInterval(() => this.ping(connection), PING_EVERY_MS);
    this.pinger.unref();
    this.changes.following(true);
    this.log.info({ url: this.safeUrl, prefix: this.options.prefix }, `redis ${this.options.label}: following key changes`);
  }

  private onMessage(channel: Buffer, message: Buffer[] | Buffer | null): void {
    if (channel.toString() !== INVALIDATE_CHANNEL) return;
    if (message === null || !Array.isArray(message)) this.changes.changed(null);
    else this.changes.changed(message.map((key) => key.toString()));
  }

  /** A connection that does not answer is dropped (and reconnected): its silence would otherwise read as "nothing changed". */
  private ping(connection: number): void {
    const timer = setTimeout(() => connection === this.connection && this.client.disconnect(true), PING_EVERY_MS);
    timer.unref();
    this.client.ping().then(
      () => clearTimeout(timer),
      () => clearTimeout(timer),
    );
  }

  private stopFollowing(): void {
    this.connection += 1;
    clearInterval(this.pinger);
    if (!this.live) return;
    this.live = false;
    this.changes.following(false);
  }
}
