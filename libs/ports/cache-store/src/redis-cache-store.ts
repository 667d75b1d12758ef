import { BoundedMemo, silentLog, type LogSink } from '@bpc/support';
import type { ObjectStore } from '@bpc/object-store';
import { BODY_SUFFIX, bodyPathOf, CacheBodies, DEFAULT_BODY_PREFIX, DEFAULT_BODY_REMOVAL_DELAY_MS } from './cache-bodies';
import { OrphanSweep, type OrphanSweepOptions, type SweepReport } from './orphan-sweep';
import { assertKey, assertStorable, entryField, invalidationFields, newBodyBase, putDecision } from './cache-entry-rules';
import type { CacheEntry, CacheEntryPage, CacheEntrySelection, CacheHit, CacheSelectionSummary, CacheStore, NewCacheEntry, ProjectionPosition, PutResult, StoreResult } from './cache-store.port';
import { assertPage, indexMember, parseIndexMember, prefixEnd, SelectionTally } from './entry-index';
import { DEFAULT_RESULT_TTL_MS, assertOffset, offsetAfter } from '@bpc/projection-state';
import { CACHE_SCRIPTS, type CacheScriptName } from './redis-cache-scripts';
import { FailFastRedis, RedisKeyTracking } from '@bpc/redis-support';
import { LocalEntries } from './local-entries';

export interface RedisCacheStoreOptions {
  /** `redis://[user:password@]host:port[/db]` */
  readonly url: string;
  /** Every key lives under the hash tag `{<keyPrefix>}:cache:` (default `bpc`). */
  readonly keyPrefix?: string;
  /** Bodies live here, under `bodyPrefix`: a store every replica reaches (a shared volume, an S3 bucket). */
  readonly objects: ObjectStore;
  /** Key prefix of the bodies in `objects` (default `cache/`); the prefix belongs to this store's key prefix alone. */
  readonly bodyPrefix?: string;
  /** The periodic collection of bodies no entry references (every replica may run it). */
  readonly orphanSweep?: OrphanSweepOptions;
  readonly log?: LogSink;
  /** Give up a connection attempt after this long (default 1,000 ms). */
  readonly connectTimeoutMs?: number;
  /** Reject a command that got no answer within this long (default 2,000 ms). */
  readonly commandTimeoutMs?: number;
  /** Upper bound of the background reconnect backoff (default 2,000 ms). */
  readonly reconnectMaxDelayMs?: number;
  /** How long results of positioned mutations are kept (default 6 hours). */
  readonly resultTtlMs?: number;
  /** Grace period before a replaced or invalidated body is removed (default 30 s). */
  readonly bodyRemovalDelayMs?: number;
  /** Entries kept in this process while Redis reports their changes (default 10,000; 0: every read asks Redis). */
  readonly localEntries?: number;
  /** Index members read per round trip when a filter walks a host's keys (default 10,000, about 1 MB of URLs). */
  readonly walkChunk?: number;
}

/** Redis is unreachable or did not answer in time; the message names the URL and the cause. */
export { RedisUnavailableError as CacheStoreUnavailableError } from '@bpc/redis-support';

/** ZRANGEBYLEX bounds of a URL prefix. */
type LexRange = [min: string, max: string];

function lexRange(prefix = ''): LexRange {
  if (prefix === '') return ['-', '+'];
  const end = prefixEnd(prefix);
  return [`[${prefix}`, end === undefined ? '+' : `(${end}`];
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

/** Stored values whose decoded entries are kept (at most 16 MB of values). */
const DECODED_CAPACITY = 1_024;
const DECODED_MAX_VALUE = 16 * 1024;
const DEFAULT_LOCAL_ENTRIES = 10_000;
/** Larger stored values are read from Redis each time, which bounds what the kept entries hold (10,000 values of up to 4 KB, decoded). */
const LOCAL_MAX_VALUE = 4 * 1024;
const DEFAULT_WALK_CHUNK = 10_000;
/** Puts racing other replicas' puts of the same key: each lost race means another replica stored meanwhile, so a few suffice. */
const MAX_PUT_ATTEMPTS = 16;
/** Keys checked per script while re-indexing: a few ms of Redis each. */
const REINDEX_BATCH = 1_000;
/** How long a body claimed by the orphan sweep stays barred from becoming an entry's: far longer than any put takes. */
const CLAIM_TTL_MS = 24 * 3_600_000;
/**
 * Bodies written by this version end with this: their paths are in the
 * host's body set from their switch on, so the sweep may judge them. Bodies
 * of earlier versions are not tracked (nor are bodies an earlier version's
 * replica writes during a rolling upgrade); the sweep leaves them alone.
 */
const TRACKED = '.t';
const trackedBodyPathOf = (base: string): string => bodyPathOf(`${base}${TRACKED}`);
const isTracked = (bodyPath: string): boolean => bodyPath.endsWith(`${TRACKED}${BODY_SUFFIX}`);
/** The host id a body path starts with (`newBodyBase`), or undefined for anything else. */
const hostOfBody = (bodyPath: string): string | undefined => /^([1-9][0-9]{0,15})\//.exec(bodyPath)?.[1];

/**
 * Cache store for cluster mode: metadata in Redis (atomic Lua for
 * compare-and-switch puts and invalidate-with-count, see
 * `redis-cache-scripts.ts`), bodies in an object store every replica reaches.
 * A put writes its whole body before the script switches the metadata to it;
 * the script also keeps the host's set of referenced bodies, which the
 * orphan sweep claims against.
 *
 * Failure behaviour, as the Redis queue store: commands fail fast while Redis
 * is unreachable (no offline queue, no retries) and the client reconnects in
 * the background with a capped backoff. Nothing connects before the first call.
 *
 * Reads: every bot request reads an entry, so entries read are kept in this
 * process (`localEntries`) for as long as Redis reports every change to the
 * entry keys on a connection of their own (`RedisKeyTracking`): a put or an
 * invalidation by any replica or projector reaches each replica's copy as
 * soon as that replica reads Redis' report (sent as Redis applies the
 * change), and while that connection is down or silent nothing is kept and
 * every read asks Redis. A replica's own writes drop its copy at once. A
 * host's entries are one Redis hash, so any change to a host drops all of
 * that host's copies.
 */
export class RedisCacheStore implements CacheStore {
  private readonly redis: FailFastRedis;
  private readonly prefix: string;
  /** Every host's entries are one hash under this prefix. */
  private readonly entryKeys: string;
  private readonly log: LogSink;
  private readonly resultTtlMs: number;
  private readonly bodies: CacheBodies;
  private readonly sweep: OrphanSweep;
  private readonly bodyRemovalDelayMs: number;
  /**
   * A stored value is the whole entry, so an equal value decodes to an equal
   * entry: a hot page's entry is parsed once while it stays the same, not on
   * every bot request (a put or an invalidation stores a different value).
   */
  private readonly decoded = new BoundedMemo(decodeEntry, DECODED_CAPACITY, DECODED_MAX_VALUE);
  /** Hits by entry key and field, kept while their changes are followed. */
  private readonly local: LocalEntries<CacheHit>;
  private readonly tracking?: RedisKeyTracking;
  private readonly walkChunk: number;
  private readonly reindexing = new Map<number, Promise<void>>();

  constructor(options: RedisCacheStoreOptions) {
    this.prefix = `{${options.keyPrefix ?? 'bpc'}}:`;
    this.entryKeys = `${this.prefix}cache:e:`;
    this.log = options.log ?? silentLog;
    this.resultTtlMs = options.resultTtlMs ?? DEFAULT_RESULT_TTL_MS;
    this.walkChunk = Math.max(1, options.walkChunk ?? DEFAULT_WALK_CHUNK);
    this.bodyRemovalDelayMs = options.bodyRemovalDelayMs ?? DEFAULT_BODY_REMOVAL_DELAY_MS;
    this.bodies = new CacheBodies(options.objects, this.log, this.bodyRemovalDelayMs, options.bodyPrefix ?? DEFAULT_BODY_PREFIX);
    this.sweep = new OrphanSweep(this.bodies, (bodyPaths) => this.claimOrphans(bodyPaths), this.log, options.orphanSweep);
    // Every bot request reads an entry: concurrent reads share one round trip.
    this.redis = new FailFastRedis({ ...options, label: 'cache store', scripts: CACHE_SCRIPTS, autoPipelining: true });
    const localEntries = Math.max(0, options.localEntries ?? DEFAULT_LOCAL_ENTRIES);
    this.local = new LocalEntries(localEntries);
    if (localEntries > 0) {
      const local = this.local;
      this.tracking = new RedisKeyTracking(
        { ...options, prefix: this.entryKeys, label: 'cache store', log: this.log },
        { following: (live) => local.follow(live), changed: (keys) => (keys ? keys.forEach((key) => local.drop(key)) : local.dropAll()) },
      );
    }
    this.sweep.start();
  }

  async get(hostId: number, url: string, dimensionId: number): Promise<CacheHit | undefined> {
    assertKey(hostId, url, dimensionId);
    const key = this.hostKey(hostId);
    const field = entryField(dimensionId, url);
    const known = this.local.get(key, field);
    if (known) return known;
    this.tracking?.start();
    const ticket = this.local.ticket();
    const value = await this.redis.call((r) => r.hget(key, field));
    if (value === null) return undefined;
    const hit = this.bodies.hit(this.decoded.get(value));
    if (value.length <= LOCAL_MAX_VALUE) this.local.set(key, field, hit, ticket);
    return hit;
  }

  /**
   * Decides render-wins against the entry as read, then switches only if
   * the entry is still that one (`bpcCacheSwap`); when another replica
   * changed it meanwhile, decides again against the new one. The body is
   * written once, before the first switch (again only if the orphan sweep
   * claimed it meanwhile), and removed if it never becomes the entry.
   */
  async put(incoming: NewCacheEntry, body: Buffer): Promise<PutResult> {
    assertStorable(incoming, body);
    const key = this.hostKey(incoming.hostId);
    const field = entryField(incoming.dimensionId, incoming.url);
    let current = await this.redis.call((r) => r.hget(key, field));
    let entry: CacheEntry | undefined;
    for (let attempt = 1; ; attempt++) {
      if (current !== null && putDecision(decodeEntry(current), incoming) === 'render-wins') {
        if (entry) void this.bodies.removeNow([entry.bodyPath]);
        return { stored: false, reason: 'render-wins' };
      }
      if (attempt > MAX_PUT_ATTEMPTS) throw new Error(`the entry of ${incoming.url} changed under ${MAX_PUT_ATTEMPTS} puts in a row`);
      if (!entry) {
        const bodyPath = trackedBodyPathOf(newBodyBase(incoming, incoming.createdAt));
        await this.bodies.write(bodyPath, body);
        entry = { ...incoming, headers: { ...incoming.headers }, bytes: body.length, bodyPath };
      }
      const replaced = current === null ? '' : decodeEntry(current).bodyPath;
      // If the script fails, whether the switch happened is unknown (e.g. a timeout after Redis ran it): the body is kept (removing it could break a live entry); if it is not the entry, the orphan sweep takes it.
      const [switched, seen] = (await this.writeEntries('bpcCacheSwap', key, [
        field,
        current ?? '',
        encodeEntry(entry),
        this.indexKey(incoming.hostId),
        indexMember(incoming.url, incoming.dimensionId),
        this.bodySetKey(incoming.hostId),
        entry.bodyPath,
        replaced,
        this.claimKey(entry.bodyPath),
        this.retiredKey(incoming.hostId),
        this.bodyRemovalDelayMs,
      ])) as [number, string];
      if (Number(switched) === 1) {
        if (seen) this.bodies.removeLater([decodeEntry(seen).bodyPath]);
        return { stored: true, entry };
      }
      // Claimed by the orphan sweep (a put that took longer than its grace period): it goes, the next attempt writes another body.
      if (Number(switched) === -1) entry = undefined;
      else current = seen === '' ? null : seen;
    }
  }

  async invalidate(hostId: number, urls: readonly string[], dimensionIds: readonly number[], position?: ProjectionPosition): Promise<StoreResult<number>> {
    for (const url of urls) for (const dimensionId of dimensionIds) assertKey(hostId, url, dimensionId);
    if (position) assertOffset(position.offset);
    const positionArgs = position ? [position.stream, position.offset, this.resultKey(position.eventId), this.resultTtlMs] : ['', '', '', this.resultTtlMs];
    const reply = (await this.writeEntries('bpcCacheInvalidate', this.hostKey(hostId), [
      this.prefix,
      ...positionArgs,
      this.indexKey(hostId),
      this.bodySetKey(hostId),
      this.retiredKey(hostId),
      this.bodyRemovalDelayMs,
      ...invalidationFields(urls, dimensionIds),
    ])) as [number, ...(string | number | null)[]];
    if (Number(reply[0]) !== 1) {
      const recorded = reply[1];
      return { applied: false, value: recorded === null || recorded === undefined ? undefined : Number(recorded) };
    }
    const dropped = reply.slice(2) as string[];
    this.bodies.removeLater(dropped.map((value) => decodeEntry(value).bodyPath));
    return { applied: true, value: Number(reply[1]) };
  }

  async listEntries(hostId: number, selection: CacheEntrySelection, offset: number, limit: number): Promise<CacheEntryPage> {
    assertPage(offset, limit);
    const range = lexRange(selection.urlPrefix);
    if (!selection.urlFilter) {
      // No filter: the total and the page come from the sorted index in one script.
      const [total, ...values] = await this.list(hostId, range, offset, limit);
      // Decoded here, not through the memo of served entries: a listing must not push hot pages out of it.
      return { entries: (values as (string | null)[]).flatMap((value) => (value === null ? [] : [decodeEntry(value)])), total: Number(total) };
    }
    const tally = new SelectionTally(selection.urlFilter, { offset, limit });
    await this.walk(hostId, range, tally);
    if (tally.pageMembers.length === 0) return { entries: [], total: tally.entries };
    const fields = tally.pageMembers.map((member) => {
      const { url, dimensionId } = parseIndexMember(member);
      return entryField(dimensionId, url);
    });
    // Read after the walk: an entry dropped meanwhile is left out of the page.
    const values = await this.redis.call((r) => r.hmget(this.hostKey(hostId), ...fields));
    return { entries: values.flatMap((value) => (value === null ? [] : [decodeEntry(value)])), total: tally.entries };
  }

  async summarize(hostId: number, selection: CacheEntrySelection, urlLimit: number): Promise<CacheSelectionSummary> {
    assertPage(0, urlLimit);
    const tally = new SelectionTally(selection.urlFilter, undefined, urlLimit);
    await this.walk(hostId, lexRange(selection.urlPrefix), tally);
    return { entries: tally.entries, urls: tally.urls, firstUrls: tally.firstUrls };
  }

  async resultOf(eventId: string): Promise<unknown | undefined> {
    const value = await this.redis.call((r) => r.get(this.resultKey(eventId)));
    return value === null ? undefined : Number(value);
  }

  async advance(stream: string, offset: string): Promise<void> {
    assertOffset(offset);
    await this.runScript('bpcCacheAdvance', `${this.prefix}cache:checkpoints`, [stream, offset]);
  }

  async nextOffset(stream: string): Promise<string | undefined> {
    const applied = await this.redis.call((r) => r.hget(`${this.prefix}cache:checkpoints`, stream));
    return applied === null ? undefined : offsetAfter(applied);
  }

  /** Redis; the bodies' store has its own readiness (the `objectStore` port). */
  async check(): Promise<void> {
    await this.redis.call((r) => r.ping());
  }

  /** Removes the bodies no entry references and older than the grace period (see `OrphanSweep`); runs every interval on its own. */
  sweepOrphans(): Promise<SweepReport> {
    return this.sweep.sweep();
  }

  async close(): Promise<void> {
    await this.sweep.stop();
    await this.tracking?.close();
    await this.bodies.close();
    await this.redis.close();
  }

  /** The sweep's claim: per host, one script checks the body set and bars what it claims from any later switch. */
  private async claimOrphans(bodyPaths: readonly string[]): Promise<string[]> {
    const byHost = new Map<string, string[]>();
    for (const bodyPath of bodyPaths) {
      const hostId = hostOfBody(bodyPath);
      if (hostId === undefined || !isTracked(bodyPath)) continue;
      let paths = byHost.get(hostId);
      if (!paths) byHost.set(hostId, (paths = []));
      paths.push(bodyPath);
    }
    const claimed: string[] = [];
    for (const [hostId, paths] of byHost) {
      claimed.push(...((await this.runScript('bpcCacheClaimOrphans', this.bodySetKey(hostId), [`${this.prefix}cache:x:`, CLAIM_TTL_MS, this.retiredKey(hostId), this.bodyRemovalDelayMs, ...paths])) as string[]));
    }
    return claimed;
  }

  private bodySetKey(hostId: number | string): string {
    return `${this.prefix}cache:b:${hostId}`;
  }

  private retiredKey(hostId: number | string): string {
    return `${this.prefix}cache:d:${hostId}`;
  }

  private claimKey(bodyPath: string): string {
    return `${this.prefix}cache:x:${bodyPath}`;
  }

  private hostKey(hostId: number): string {
    return `${this.entryKeys}${hostId}`;
  }

  private indexKey(hostId: number): string {
    return `${this.prefix}cache:u:${hostId}`;
  }

  /** The list script's answer; an index that disagrees with its hash is brought in line first (once per call). */
  private async list(hostId: number, [min, max]: LexRange, offset: number, limit: number): Promise<unknown[]> {
    const args = [this.indexKey(hostId), min, max, offset, limit];
    const reply = (await this.runScript('bpcCacheList', this.hostKey(hostId), args)) as unknown[];
    if (Number(reply[0]) !== -1) return reply;
    await this.reindex(hostId);
    // Trusted now even if the counts still differ (a replica of an older version writing meanwhile): the next listing checks again.
    return (await this.runScript('bpcCacheList', this.hostKey(hostId), [...args, '1'])) as unknown[];
  }

  /** One re-indexing per host at a time in this process; concurrent listings wait for it. */
  private reindex(hostId: number): Promise<void> {
    let running = this.reindexing.get(hostId);
    if (!running) {
      running = this.rebuildIndex(hostId).finally(() => this.reindexing.delete(hostId));
      this.reindexing.set(hostId, running);
    }
    return running;
  }

  /**
   * Adds the keys the index misses (walking the hash with HSCAN) and removes
   * members whose entry is gone (walking the index), a batch per script, so
   * Redis is never held for long however big the host: each batch checks and
   * changes in one step, and puts and invalidations keep the index meanwhile.
   */
  private async rebuildIndex(hostId: number): Promise<void> {
    const [hash, index] = [this.hostKey(hostId), this.indexKey(hostId)];
    let added = 0;
    let cursor = '0';
    do {
      const from = cursor;
      const [next, pairs] = await this.redis.call((r) => r.hscan(hash, from, 'COUNT', REINDEX_BATCH));
      const fields = pairs.filter((_, i) => i % 2 === 0);
      if (fields.length > 0) added += Number(await this.runScript('bpcCacheIndexFields', hash, [index, ...fields]));
      cursor = next;
    } while (cursor !== '0');
    let removed = 0;
    let min = '-';
    for (;;) {
      const from = min;
      const members = await this.redis.call((r) => r.zrangebylex(index, from, '+', 'LIMIT', 0, REINDEX_BATCH));
      if (members.length > 0) removed += Number(await this.runScript('bpcCacheUnindexGone', hash, [index, ...members]));
      if (members.length < REINDEX_BATCH) break;
      min = `(${members[members.length - 1]}`;
    }
    this.log.info({ hostId, added, removed }, 'cache entry index brought in line with the entries');
  }

  /** Feeds the index members within the range to the tally, a chunk per round trip, so Redis is never held for long. */
  private async walk(hostId: number, range: LexRange, tally: SelectionTally): Promise<void> {
    await this.list(hostId, range, 0, 0);
    let [min] = range;
    for (;;) {
      const from = min;
      const members = await this.redis.call((r) => r.zrangebylex(this.indexKey(hostId), from, range[1], 'LIMIT', 0, this.walkChunk));
      for (const member of members) tally.add(member);
      if (members.length < this.walkChunk) return;
      min = `(${members[members.length - 1]}`;
    }
  }

  private resultKey(eventId: string): string {
    return `${this.prefix}cache:r:${eventId}`;
  }

  private runScript(name: CacheScriptName, key: string, args: (string | number)[]): Promise<unknown> {
    return this.redis.runScript(name, key, args);
  }

  /** A script changing a host's entries: this replica's copy is dropped once it ran (or failed), not only when Redis' report arrives. */
  private writeEntries(name: CacheScriptName, key: string, args: (string | number)[]): Promise<unknown> {
    return this.runScript(name, key, args).finally(() => this.local.drop(key));
  }
}
