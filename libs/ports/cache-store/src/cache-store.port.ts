import type { Readable } from 'node:stream';
import type { PageFacts } from '@bpc/domain';

export const CACHE_STORE = Symbol('CACHE_STORE');

/** `render`: serialised by the browser; `bypass`: the origin's answer as it came. */
export type CacheKind = 'render' | 'bypass';

/**
 * Response headers kept with an entry (lower-case names). The edge replays
 * them with the stored status. Origin caching headers (`cache-control`,
 * `expires`, `etag`, `set-cookie` …) are deliberately not kept: the page is
 * served from our cache under our TTL rules, and replaying an origin's
 * `no-store` or a session cookie to a bot would be wrong.
 */
export const STORED_HEADERS = ['content-type', 'location', 'x-robots-tag', 'link', 'content-language'] as const;
export type StoredHeaderName = (typeof STORED_HEADERS)[number];
export type StoredHeaders = Readonly<Partial<Record<StoredHeaderName, string>>>;

/** Where an entry belongs: one entry per host + URL + dimension. */
export interface CacheKey {
  readonly hostId: number;
  /** The public page URL (as queued, normalised by the caller), not the origin URL. */
  readonly url: string;
  readonly dimensionId: number;
}

/** What a producer (the renderer) hands to `put`, besides the body. */
export interface NewCacheEntry extends CacheKey {
  readonly kind: CacheKind;
  /** The stored HTTP status: 2xx, 3xx (with `location`) or 4xx; a real answer of the origin. */
  readonly statusCode: number;
  readonly headers: StoredHeaders;
  /** How long the render or the origin fetch took. */
  readonly durationMs: number;
  /** Epoch ms; also the instant render-wins is judged at (a render is fresh while `expiresAt > createdAt` of the newcomer). */
  readonly createdAt: number;
  /** Epoch ms after which the entry is stale (still served by `get`; the caller decides). */
  readonly expiresAt: number;
  /**
   * What the stored page says to bots (docs/seo-health.md), extracted from
   * the render: kept with the entry so the next render of the page can be
   * compared with it and `llms.txt` can list the cached pages without reading
   * their bodies. Absent for entries stored before, and for bypasses.
   */
  readonly facts?: PageFacts;
}

/** An entry as stored: the metadata plus where its body lives. */
export interface CacheEntry extends NewCacheEntry {
  /** Body size in bytes. */
  readonly bytes: number;
  /**
   * The body's object key relative to the cache's prefix in the object store
   * (`cache/`; with files under `data_dir`, the path relative to
   * `data_dir/cache`, as when bodies were plain files). Every put writes a
   * new object: a body never changes once written, so it can be cached by
   * this path forever.
   */
  readonly bodyPath: string;
}

/** The current entry of a key, with its body. */
export interface CacheHit {
  readonly entry: CacheEntry;
  /**
   * Reads the whole body. Rejects with `CacheBodyGoneError` when the body was
   * removed meanwhile (the entry was replaced or invalidated and the removal
   * grace period passed): treat it as a miss. An unreachable object store
   * rejects with its `ObjectStoreUnavailableError`.
   */
  readBody(): Promise<Buffer>;
  /** Streams the body; the stream errors with `CacheBodyGoneError` in the same case. */
  openBody(): Readable;
}

export type PutResult = { readonly stored: true; readonly entry: CacheEntry } | { readonly stored: false; readonly reason: 'render-wins' };

/** Same shape as the queue store's: where a mutation comes from in the event log. */
export interface ProjectionPosition {
  /** `${topic}:${partition}` */
  readonly stream: string;
  /** Canonical decimal integer string (may exceed 2^53); compared by value. */
  readonly offset: string;
  /** The result of the mutation is recorded under this id (see `resultOf`). */
  readonly eventId: string;
}

export type StoreResult<T> = { readonly applied: true; readonly value: T } | { readonly applied: false; readonly value: T | undefined };

/** Which of a host's entries a listing covers. */
export interface CacheEntrySelection {
  /** Only URLs starting with this text (as stored: normalised URLs); absent or '': every URL of the host. */
  readonly urlPrefix?: string;
  /**
   * Further keeps only the URLs this accepts (an RE2 pattern's test, say).
   * It runs on every URL within the prefix, in the caller's process: narrow
   * the prefix where the filter allows it.
   */
  readonly urlFilter?: (url: string) => boolean;
}

/** One page of a selection. */
export interface CacheEntryPage {
  /** The selection's entries from `offset` on, at most `limit`, by URL then dimension id. */
  readonly entries: CacheEntry[];
  /** Entries in the whole selection. */
  readonly total: number;
}

/** The size of a selection, and its URLs up to a bound. */
export interface CacheSelectionSummary {
  /** Entries (URL × dimension) selected. */
  readonly entries: number;
  /** Distinct URLs selected. */
  readonly urls: number;
  /** The first `urlLimit` distinct URLs, in listing order. */
  readonly firstUrls: string[];
}

/** A body vanished between `get` and the read: the entry was replaced or invalidated. */
export class CacheBodyGoneError extends Error {
  override readonly name = 'CacheBodyGoneError';
}

/**
 * Cache entries per host + URL + dimension: metadata (in memory or Redis) and
 * bodies as immutable objects under `cache/` in the object store (files under
 * `data_dir`, or an S3-compatible bucket).
 *
 * Guarantees, for every adapter:
 * - `put` writes the body completely (an all-or-nothing object write) before
 *   it switches the metadata, in one atomic step, to the new entry: a reader
 *   sees the old entry or the new one, never a partial body. The replaced body
 *   is removed in the background after a grace period, so a reader that got
 *   the old entry just before the switch can still read it.
 * - No body outlives its entry for long: replaced and invalidated bodies go
 *   after the grace period, and an orphan sweep (at open and every interval,
 *   safe on several replicas at once) removes bodies no entry names that are
 *   older than its own grace period (a crash between a put's two writes, a
 *   removal that failed). It never removes a live entry's body, nor a body a
 *   put in flight is about to switch to. Expired entries are not removed:
 *   they stay servable as stale until replaced or invalidated (`get`).
 * - Render-wins: a `bypass` entry never replaces a `render` entry that is
 *   still fresh at the newcomer's `createdAt` (`expiresAt > createdAt`); the
 *   check and the switch are one atomic step.
 * - An empty body is refused (an invalid call, it throws before writing),
 *   except for a redirect: a 3xx with a `location` header is stored as it
 *   came, body or not.
 * - `invalidate` drops metadata at once and answers how many entries existed;
 *   bodies go in the background and never delay the answer.
 * - A positioned mutation at or below the stream's applied offset changes
 *   nothing and answers `applied: false` with the result recorded for that
 *   event id, while kept (at least an hour). Checkpoints are the cache
 *   store's own: they never share keys with the queue store's.
 */
export interface CacheStore {
  /**
   * The current entry of a key, stale or not (`isFresh` tells), or undefined
   * when there is none (never stored, invalidated).
   */
  get(hostId: number, url: string, dimensionId: number): Promise<CacheHit | undefined>;
  /** Stores a body and switches the key to it, unless render-wins keeps the current entry (then nothing is written). */
  put(entry: NewCacheEntry, body: Buffer): Promise<PutResult>;
  /**
   * Drops the entries of every URL × dimension named (the caller resolves
   * "all dimensions" to the configured ids; `[]` drops nothing); answers how
   * many existed. Repeats count once.
   */
  invalidate(hostId: number, urls: readonly string[], dimensionIds: readonly number[], position?: ProjectionPosition): Promise<StoreResult<number>>;
  /**
   * A page of a host's entries whose URL starts with the selection's prefix
   * and passes its filter, ordered by URL (code units / bytes) then
   * dimension id, with the selection's total. Efficient for hundreds of
   * thousands of entries per host: a prefix is found through a sorted index
   * of the host's keys (not a scan of every entry), and only the page's
   * metadata is read; a `urlFilter` walks the URLs within the prefix. Not a
   * snapshot: entries stored or dropped while a filtered walk runs may or
   * may not be seen (never twice).
   */
  listEntries(hostId: number, selection: CacheEntrySelection, offset: number, limit: number): Promise<CacheEntryPage>;
  /** How many entries and distinct URLs a selection holds, and its first `urlLimit` URLs (what a bulk invalidation needs). */
  summarize(hostId: number, selection: CacheEntrySelection, urlLimit: number): Promise<CacheSelectionSummary>;
  /**
   * Marks a stream as applied up to `offset` when the events up to it changed
   * nothing here, so a restart does not replay them; never moves back.
   */
  advance(stream: string, offset: string): Promise<void>;
  /** Result recorded by a positioned mutation, while kept (at least an hour). */
  resultOf(eventId: string): Promise<unknown | undefined>;
  /** Next offset to read for a stream (one past the last applied), undefined when nothing was applied. */
  nextOffset(stream: string): Promise<string | undefined>;
  /**
   * Readiness of the metadata (Redis, or the sidecars' directory): resolves
   * when it answers, rejects with the reason otherwise. The bodies' object
   * store has readiness of its own (the `objectStore` port), so an app can
   * judge it apart: the edge serves hot bodies from memory without it.
   */
  check(): Promise<void>;
  /** Stops background work; pending body removals run now. */
  close(): Promise<void>;
}
