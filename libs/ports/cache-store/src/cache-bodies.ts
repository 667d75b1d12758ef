import { PassThrough, type Readable } from 'node:stream';
import { LRUCache } from 'lru-cache';
import type { LogSink } from '@bpc/support';
import { ObjectGoneError, type ObjectKey, type ObjectStore } from '@bpc/object-store';
import { CacheBodyGoneError, type CacheEntry, type CacheHit } from './cache-store.port';

/** How long a replaced or invalidated body stays by default, for readers that got its entry just before. */
export const DEFAULT_BODY_REMOVAL_DELAY_MS = 30_000;

/** Where the cache's bodies live in the object store: `data_dir/cache` with the file adapter, as before object storage. */
export const DEFAULT_BODY_PREFIX = 'cache/';

export const BODY_SUFFIX = '.body';

/** A body's path relative to the prefix, from its fresh base (`newBodyBase`). */
export const bodyPathOf = (base: string): string => `${base}${BODY_SUFFIX}`;

/**
 * Bodies this process just wrote, kept for their first read: the edge that
 * rendered a miss answers it by reading the entry back, and with S3 that
 * read would be a round trip for bytes it holds. Bounded, and short-lived:
 * a daemon, which never reads what it writes, holds at most this much.
 */
const JUST_WRITTEN = { maxSize: 8 * 1024 * 1024, ttl: 30_000 } as const;

/** Keys removed per `remove` call: S3's DeleteObjects takes at most 1,000. */
const REMOVE_BATCH = 500;

/** A body in the store as a listing sees it, named by its path relative to the prefix. */
export interface ListedBody {
  readonly bodyPath: string;
  readonly modifiedAt: number;
}

/**
 * Page bodies as immutable objects under one key prefix, shared by both
 * adapters. Paths handed in and out (`CacheEntry.bodyPath`) are relative to
 * the prefix, so entries stored when bodies were files under `data_dir/cache`
 * stay valid. Removals are delayed by a grace period and never awaited by the
 * caller; `close` runs the pending ones.
 */
export class CacheBodies {
  private readonly pending = new Map<NodeJS.Timeout, readonly string[]>();
  /** Bodies waiting out their removal grace period: readers that got their entry just before may still read them. */
  private readonly graced = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly justWritten = new LRUCache<string, Buffer>({ ...JUST_WRITTEN, sizeCalculation: (body) => Math.max(1, body.length) });

  constructor(
    private readonly objects: ObjectStore,
    private readonly log: LogSink,
    private readonly removalDelayMs: number,
    private readonly prefix: string = DEFAULT_BODY_PREFIX,
  ) {
    if (prefix !== '' && !prefix.endsWith('/')) throw new RangeError(`invalid body prefix ${JSON.stringify(prefix)}: '' or a folder ending with '/' expected`);
  }

  /** Where bodies live, for logs. */
  get location(): string {
    return `${this.objects.location} (${this.prefix || 'no prefix'})`;
  }

  /** Writes a whole body (all or nothing, see `ObjectStore.put`) under a fresh path (`bodyPathOf`): a body is never rewritten. */
  async write(bodyPath: string, body: Buffer): Promise<void> {
    await this.objects.put(this.keyOf(bodyPath), body);
    if (body.length <= JUST_WRITTEN.maxSize / 8) this.justWritten.set(bodyPath, body);
  }

  /** The key is resolved when the body is read: a hit served from memory never needs the store. */
  hit(entry: CacheEntry): CacheHit {
    const gone = (error: unknown): Error =>
      error instanceof ObjectGoneError ? new CacheBodyGoneError(`cache body ${entry.bodyPath} is gone (entry replaced or invalidated)`, { cause: error }) : (error as Error);
    return {
      entry,
      readBody: async () => {
        // Once: whoever reads it (the edge's body cache) keeps it from then on.
        const written = this.justWritten.get(entry.bodyPath);
        if (written) {
          this.justWritten.delete(entry.bodyPath);
          return written;
        }
        try {
          return await this.objects.read(this.keyOf(entry.bodyPath));
        } catch (error) {
          throw gone(error);
        }
      },
      openBody: (): Readable => {
        const out = new PassThrough();
        let source: Readable;
        try {
          source = this.objects.open(this.keyOf(entry.bodyPath));
        } catch (error) {
          process.nextTick(() => out.destroy(gone(error)));
          return out;
        }
        source.on('error', (error) => out.destroy(gone(error)));
        return source.pipe(out);
      },
    };
  }

  /** Every body under the prefix (`.body` objects only: the file adapter keeps its sidecars beside them). */
  async *list(): AsyncIterable<ListedBody> {
    for await (const object of this.objects.list(this.prefix)) {
      const bodyPath = object.key.slice(this.prefix.length);
      if (bodyPath.endsWith(BODY_SUFFIX)) yield { bodyPath, modifiedAt: object.modifiedAt };
    }
  }

  /** Removes bodies after the grace period, in the background; failures are logged (the orphan sweep takes what is left). */
  removeLater(bodyPaths: readonly string[]): void {
    if (bodyPaths.length === 0) return;
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      this.track(this.removeGraced(bodyPaths));
    }, this.removalDelayMs);
    timer.unref();
    this.pending.set(timer, bodyPaths);
    for (const bodyPath of bodyPaths) this.graced.add(bodyPath);
  }

  /** The body waits out its removal grace period in this process. */
  isGraced(bodyPath: string): boolean {
    return this.graced.has(bodyPath);
  }

  /** Removes bodies now; never throws (a body left behind wastes space until the orphan sweep, nothing else). */
  async removeNow(bodyPaths: readonly string[]): Promise<void> {
    for (const bodyPath of bodyPaths) this.justWritten.delete(bodyPath);
    for (let i = 0; i < bodyPaths.length; i += REMOVE_BATCH) {
      const batch = bodyPaths.slice(i, i + REMOVE_BATCH);
      try {
        await this.objects.remove(batch.map((bodyPath) => this.keyOf(bodyPath)));
      } catch (error) {
        this.log.warn({ bodies: batch.length, first: batch[0], err: (error as Error).message }, 'cache body removal failed; left to the orphan sweep');
      }
    }
  }

  /** Runs pending removals now and waits for running ones. */
  async close(): Promise<void> {
    for (const [timer, bodyPaths] of this.pending) {
      clearTimeout(timer);
      this.track(this.removeGraced(bodyPaths));
    }
    this.pending.clear();
    await Promise.all([...this.running]);
  }

  private async removeGraced(bodyPaths: readonly string[]): Promise<void> {
    await this.removeNow(bodyPaths);
    for (const bodyPath of bodyPaths) this.graced.delete(bodyPath);
  }

  private keyOf(bodyPath: string): ObjectKey {
    return `${this.prefix}${bodyPath}`;
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }
}
