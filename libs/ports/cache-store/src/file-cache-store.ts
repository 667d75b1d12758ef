import { constants as fsConstants } from 'node:fs';
import { access, mkdir, readFile, readdir, unlink } from 'node:fs/promises';
import path from 'node:path';
import { silentLog, type LogSink } from '@bpc/support';
import { removeAtomicWriteLeftovers, writeFileAtomic } from '@bpc/durable-fs';
import type { ObjectStore } from '@bpc/object-store';
import { BODY_SUFFIX, bodyPathOf, CacheBodies, DEFAULT_BODY_PREFIX, DEFAULT_BODY_REMOVAL_DELAY_MS } from './cache-bodies';
import { DEFAULT_ORPHAN_SWEEP_INTERVAL_MS, OrphanSweep, type OrphanSweepOptions, type SweepReport } from './orphan-sweep';
import { assertKey, assertStorable, entryField, invalidationFields, newBodyBase, putDecision } from './cache-entry-rules';
import type { CacheEntry, CacheEntryPage, CacheEntrySelection, CacheHit, CacheSelectionSummary, CacheStore, NewCacheEntry, ProjectionPosition, PutResult, StoreResult } from './cache-store.port';
import { assertPage, indexMember, parseIndexMember, prefixEnd, SelectionTally, SortedStrings } from './entry-index';
import { DEFAULT_RESULT_TTL_MS, ProjectionLedger, type LedgerState } from '@bpc/projection-state';

/** Checkpoints and recorded results of the file adapter, at the root of its directory. */
export const CACHE_STATE_FILE = 'cache-state.json';
const STATE_VERSION = 1;
const SIDECAR = '.json';
const BODY = BODY_SUFFIX;
const SCAN_BATCH = 64;

export interface FileCacheStoreOptions {
  /** The metadata sidecars and the state file live here (created when missing); a sidecar's path is its body's, relative to this directory. */
  readonly directory: string;
  /** Bodies live here, under `bodyPrefix`. With files under `data_dir` and `directory` = `data_dir/cache`, sidecars sit beside their bodies as before. */
  readonly objects: ObjectStore;
  /** Key prefix of the bodies in `objects` (default `cache/`); the prefix belongs to this store alone. */
  readonly bodyPrefix?: string;
  readonly log?: LogSink;
  /** Grace period before a replaced or invalidated body is removed (default 30 s). */
  readonly bodyRemovalDelayMs?: number;
  /** The periodic collection of bodies no entry references (at open every such body goes at once). */
  readonly orphanSweep?: OrphanSweepOptions;
  /** How long results of positioned mutations are kept (default 6 hours; the port promises at least 1 hour). */
  readonly resultTtlMs?: number;
  /** Clock for result expiry and for render-wins among sidecars at open; puts are judged at the entry's `createdAt`. */
  readonly clock?: () => number;
}

interface StateFile extends LedgerState {
  readonly version: typeof STATE_VERSION;
}

const sidecarOf = (bodyPath: string): string => `${bodyPath.slice(0, -BODY.length)}${SIDECAR}`;

/**
 * Cache store for standalone mode: metadata in memory, persisted as one
 * small JSON sidecar per body (`<base>.json` in the directory for the body
 * `<base>.body` in the object store), and rebuilt at `open` from the
 * directory's sidecars and the store's bodies, so a restart keeps the cache.
 * The sidecar's rename is the commit point of a put.
 *
 * Concurrency: the render-wins check and the metadata switch run
 * synchronously (one turn of the event loop), so they are atomic with respect
 * to other calls; file I/O happens before (body, sidecar) or after (removal
 * of the replaced files).
 */
export class FileCacheStore implements CacheStore {
  private readonly entries = new Map<number, Map<string, CacheEntry>>();
  /** Per host, its keys in listing order (`indexMember`), changed with `entries` in the same synchronous step. */
  private readonly index = new Map<number, SortedStrings>();
  private readonly ledger: ProjectionLedger;
  private readonly bodies: CacheBodies;
  /** Paths of the bodies entries name, kept with `entries`: what the orphan sweep must never take. */
  private readonly liveBodies = new Set<string>();
  /** Bodies of puts in flight (written or being written, not switched yet): never orphans. */
  private readonly writing = new Set<string>();
  private readonly sweep: OrphanSweep;
  /** The directory's absolute path with a trailing separator: every sidecar resolves below it. */
  private readonly root: string;
  private readonly log: LogSink;
  private readonly clock: () => number;
  private stateWrite: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(private readonly options: FileCacheStoreOptions) {
    this.log = options.log ?? silentLog;
    this.clock = options.clock ?? Date.now;
    this.ledger = new ProjectionLedger(options.resultTtlMs ?? DEFAULT_RESULT_TTL_MS, 100_000);
    this.bodies = new CacheBodies(options.objects, this.log, options.bodyRemovalDelayMs ?? DEFAULT_BODY_REMOVAL_DELAY_MS, options.bodyPrefix ?? DEFAULT_BODY_PREFIX);
    this.root = path.resolve(options.directory) + path.sep;
    this.sweep = new OrphanSweep(this.bodies, async (bodyPaths) => this.unreferenced(bodyPaths), this.log, options.orphanSweep);
  }

  /**
   * Opens the directory: loads checkpoints, rebuilds metadata from the
   * sidecars and removes leftovers of interrupted writes (bodies no sidecar
   * names included), then sweeps orphans every interval.
   */
  static async open(options: FileCacheStoreOptions): Promise<FileCacheStore> {
    const store = new FileCacheStore(options);
    await store.checkDirectory();
    // The event log, opened before, locks the data directory to this process: this store is the state file's only writer.
    await removeAtomicWriteLeftovers(path.join(options.directory, CACHE_STATE_FILE));
    await store.loadState();
    await store.scan();
    // The scan has just collected every orphan: the first sweep waits a whole interval.
    store.sweep.start(options.orphanSweep?.intervalMs ?? DEFAULT_ORPHAN_SWEEP_INTERVAL_MS);
    return store;
  }

  async get(hostId: number, url: string, dimensionId: number): Promise<CacheHit | undefined> {
    this.assertOpen();
    assertKey(hostId, url, dimensionId);
    const entry = this.entries.get(hostId)?.get(entryField(dimensionId, url));
    return entry ? this.bodies.hit(entry) : undefined;
  }

  async put(incoming: NewCacheEntry, body: Buffer): Promise<PutResult> {
    this.assertOpen();
    assertStorable(incoming, body);
    const field = entryField(incoming.dimensionId, incoming.url);
    // Cheap early answer: no file written for a bypass that would lose anyway.
    if (putDecision(this.entries.get(incoming.hostId)?.get(field), incoming) === 'render-wins') return { stored: false, reason: 'render-wins' };
    const bodyPath = bodyPathOf(newBodyBase(incoming, incoming.createdAt));
    this.writing.add(bodyPath);
    try {
      await this.bodies.write(bodyPath, body);
      const entry: CacheEntry = { ...incoming, headers: { ...incoming.headers }, bytes: body.length, bodyPath };
      try {
        await writeFileAtomic(this.fileOf(sidecarOf(bodyPath)), JSON.stringify(entry));
      } catch (error) {
        void this.bodies.removeNow([bodyPath]);
        throw error;
      }
      // From here to the switch nothing awaits: check and switch are one step.
      const host = this.hostEntries(incoming.hostId);
      const current = host.get(field);
      if (this.closed || putDecision(current, incoming) === 'render-wins') {
        void this.unlinkIfPresent(sidecarOf(bodyPath)).catch(() => undefined);
        void this.bodies.removeNow([bodyPath]);
        if (this.closed) throw new Error('file cache store is closed');
        return { stored: false, reason: 'render-wins' };
      }
      host.set(field, entry);
      this.liveBodies.add(bodyPath);
      if (current) this.retire([current]);
      else this.hostIndex(incoming.hostId).add(indexMember(incoming.url, incoming.dimensionId));
      return { stored: true, entry };
    } finally {
      this.writing.delete(bodyPath);
    }
  }

  async invalidate(hostId: number, urls: readonly string[], dimensionIds: readonly number[], position?: ProjectionPosition): Promise<StoreResult<number>> {
    this.assertOpen();
    for (const url of urls) for (const dimensionId of dimensionIds) assertKey(hostId, url, dimensionId);
    const now = this.clock();
    const replayed = position && this.ledger.replayed(position, now);
    if (replayed) return replayed as StoreResult<number>;
    const dropped: CacheEntry[] = [];
    const host = this.entries.get(hostId);
    for (const field of invalidationFields(urls, dimensionIds)) {
      const entry = host?.get(field);
      if (!entry) continue;
      host!.delete(field);
      this.liveBodies.delete(entry.bodyPath);
      this.index.get(hostId)?.delete(indexMember(entry.url, entry.dimensionId));
      dropped.push(entry);
    }
    if (host && host.size === 0) {
      this.entries.delete(hostId);
      this.index.delete(hostId);
    }
    if (position) this.ledger.record(position, dropped.length, now);
    // Sidecars are the metadata: they go before the answer (and before the checkpoint is saved) so a restart cannot bring entries back.
    await Promise.all(dropped.map((entry) => this.unlinkIfPresent(sidecarOf(entry.bodyPath))));
    this.bodies.removeLater(dropped.map((entry) => entry.bodyPath));
    if (position) await this.saveState();
    return { applied: true, value: dropped.length };
  }

  async listEntries(hostId: number, selection: CacheEntrySelection, offset: number, limit: number): Promise<CacheEntryPage> {
    this.assertOpen();
    assertPage(offset, limit);
    const host = this.entries.get(hostId);
    const index = this.index.get(hostId);
    if (!host || !index) return { entries: [], total: 0 };
    const toEntries = (members: readonly string[]) =>
      members.map((member) => {
        const { url, dimensionId } = parseIndexMember(member);
        return host.get(entryField(dimensionId, url))!;
      });
    const [start, stop] = this.prefixRange(index, selection.urlPrefix);
    if (!selection.urlFilter) {
      // No filter: the page and the total come from positions in the index, nothing is walked.
      const count = Math.max(0, Math.min(limit, stop - start - offset));
      const members: string[] = [];
      if (count > 0) {
        for (const member of index.from(start + offset)) {
          members.push(member);
          if (members.length === count) break;
        }
      }
      return { entries: toEntries(members), total: stop - start };
    }
    const tally = new SelectionTally(selection.urlFilter, { offset, limit });
    this.walk(index, start, stop, tally);
    return { entries: toEntries(tally.pageMembers), total: tally.entries };
  }

  async summarize(hostId: number, selection: CacheEntrySelection, urlLimit: number): Promise<CacheSelectionSummary> {
    this.assertOpen();
    assertPage(0, urlLimit);
    const tally = new SelectionTally(selection.urlFilter, undefined, urlLimit);
    const index = this.index.get(hostId);
    if (index) this.walk(index, ...this.prefixRange(index, selection.urlPrefix), tally);
    return { entries: tally.entries, urls: tally.urls, firstUrls: tally.firstUrls };
  }

  async resultOf(eventId: string): Promise<unknown | undefined> {
    this.assertOpen();
    return this.ledger.resultOf(eventId, this.clock());
  }

  /** Persisted with the next state write (an invalidation or close): losing it only means replaying no-ops. */
  async advance(stream: string, offset: string): Promise<void> {
    this.assertOpen();
    this.ledger.advance(stream, offset);
  }

  async nextOffset(stream: string): Promise<string | undefined> {
    this.assertOpen();
    return this.ledger.nextOffset(stream);
  }

  /** The metadata's directory; the bodies' store has its own readiness (the `objectStore` port). */
  async check(): Promise<void> {
    this.assertOpen();
    await this.checkDirectory();
  }

  /** Removes the bodies no entry references and older than the grace period (see `OrphanSweep`); runs every interval on its own. */
  sweepOrphans(): Promise<SweepReport> {
    this.assertOpen();
    return this.sweep.sweep();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.sweep.stop();
    // Keeps checkpoints moved by `advance` since the last invalidation.
    await this.saveState().catch((error) => this.log.warn({ err: error }, 'cache state not saved on close'));
    await this.bodies.close();
  }

  /**
   * The sweep's claim, judged in one synchronous step: a body no entry names
   * and no put in flight writes can never become an entry's (every put writes
   * a fresh path), so it is an orphan for good; one waiting out its removal
   * grace period is left to its removal.
   */
  private unreferenced(bodyPaths: readonly string[]): string[] {
    return bodyPaths.filter((bodyPath) => !this.liveBodies.has(bodyPath) && !this.writing.has(bodyPath) && !this.bodies.isGraced(bodyPath));
  }

  private async checkDirectory(): Promise<void> {
    await mkdir(this.options.directory, { recursive: true });
    await access(this.options.directory, fsConstants.W_OK);
  }

  /** A sidecar's absolute path; refuses one that would leave the directory. */
  private fileOf(relative: string): string {
    const resolved = path.resolve(this.options.directory, relative);
    if (!resolved.startsWith(this.root)) throw new Error(`sidecar path ${JSON.stringify(relative)} leaves the cache directory`);
    return resolved;
  }

  private assertOpen(): void {
    if (this.closed) throw new Error('file cache store is closed');
  }

  private hostIndex(hostId: number): SortedStrings {
    let index = this.index.get(hostId);
    if (!index) this.index.set(hostId, (index = new SortedStrings()));
    return index;
  }

  /** Positions [start, stop) of the members whose URL starts with `prefix`. */
  private prefixRange(index: SortedStrings, prefix = ''): [number, number] {
    const end = prefixEnd(prefix);
    return [index.rank(prefix), end === undefined ? index.size : index.rank(end)];
  }

  private walk(index: SortedStrings, start: number, stop: number, tally: SelectionTally): void {
    let position = start;
    for (const member of index.from(start)) {
      if (position++ >= stop) break;
      tally.add(member);
    }
  }

  private hostEntries(hostId: number): Map<string, CacheEntry> {
    let host = this.entries.get(hostId);
    if (!host) this.entries.set(hostId, (host = new Map()));
    return host;
  }

  /** A replaced entry: its sidecar goes now (metadata), its body after the grace period. */
  private retire(entries: readonly CacheEntry[]): void {
    for (const entry of entries) {
      this.liveBodies.delete(entry.bodyPath);
      void this.unlinkIfPresent(sidecarOf(entry.bodyPath)).catch((error: Error) => this.log.warn({ err: error.message }, 'cache sidecar removal failed'));
    }
    this.bodies.removeLater(entries.map((entry) => entry.bodyPath));
  }

  private async unlinkIfPresent(relative: string): Promise<void> {
    try {
      await unlink(this.fileOf(relative));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }

  /** Writes are chained so the file always ends with the latest state. */
  private saveState(): Promise<void> {
    const write = this.stateWrite.then(() => {
      const state: StateFile = { version: STATE_VERSION, ...this.ledger.state(this.clock()) };
      return writeFileAtomic(path.join(this.options.directory, CACHE_STATE_FILE), JSON.stringify(state));
    });
    // A failed write fails its caller; the next write starts afresh.
    this.stateWrite = write.catch(() => undefined);
    return write;
  }

  private async loadState(): Promise<void> {
    let json: string;
    try {
      json = await readFile(path.join(this.options.directory, CACHE_STATE_FILE), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    const state = JSON.parse(json) as StateFile;
    if (state.version !== STATE_VERSION) throw new Error(`unsupported cache state version ${String(state.version)} in ${CACHE_STATE_FILE}`);
    this.ledger.restore(state, this.clock());
  }

  /**
   * Rebuilds metadata from sidecars. Several sidecars of one key (a crash
   * between a put's commit and the old sidecar's removal) are settled as the
   * puts would have been, in `createdAt` order with render-wins; losers,
   * sidecars without a body, bodies without a sidecar (a crash between the
   * two writes) and temp files of interrupted writes go. Nothing else runs
   * yet (the event log locks the data directory to this process), so an
   * unreferenced body needs no grace period here.
   */
  private async scan(): Promise<void> {
    const names = (await readdir(this.options.directory, { recursive: true })).map(String);
    const bodies = new Set<string>();
    for await (const body of this.bodies.list()) bodies.add(body.bodyPath);
    const sidecars: CacheEntry[] = [];
    const leftovers: string[] = [];
    const sidecarNames: string[] = [];
    for (const name of names) {
      const relative = name.split(path.sep).join('/');
      if (!relative.includes('/')) continue; // the state file lives at the root (its temp files are removed at open)
      // Temp files of interrupted writes: sidecars', and bodies' when the object store keeps them in this directory.
      if (relative.includes('.tmp-')) leftovers.push(relative);
      else if (relative.endsWith(SIDECAR)) sidecarNames.push(relative);
    }
    // Read in batches: a large cache opens in reasonable time without exhausting file descriptors.
    for (let i = 0; i < sidecarNames.length; i += SCAN_BATCH) {
      const batch = sidecarNames.slice(i, i + SCAN_BATCH);
      const read = await Promise.all(batch.map((relative) => this.readSidecar(relative)));
      read.forEach((entry, j) => (entry ? sidecars.push(entry) : leftovers.push(batch[j])));
    }
    sidecars.sort((a, b) => a.createdAt - b.createdAt);
    const losers: CacheEntry[] = [];
    for (const entry of sidecars) {
      if (!bodies.has(entry.bodyPath)) {
        leftovers.push(sidecarOf(entry.bodyPath));
        continue;
      }
      const host = this.hostEntries(entry.hostId);
      const field = entryField(entry.dimensionId, entry.url);
      const current = host.get(field);
      // Judged at the clock, not at createdAt: a render that has expired since may now give way.
      if (putDecision(current, { kind: entry.kind, createdAt: Math.max(entry.createdAt, this.clock()) }) === 'render-wins') {
        losers.push(entry);
        continue;
      }
      host.set(field, entry);
      if (current) losers.push(current);
      else this.hostIndex(entry.hostId).add(indexMember(entry.url, entry.dimensionId));
    }
    const live = this.liveBodies;
    for (const host of this.entries.values()) for (const entry of host.values()) live.add(entry.bodyPath);
    const orphans = [...bodies].filter((body) => !live.has(body));
    for (const loser of losers) leftovers.push(sidecarOf(loser.bodyPath));
    for (const leftover of leftovers) await this.unlinkIfPresent(leftover).catch((error: Error) => this.log.warn({ file: leftover, err: error.message }, 'cache leftover removal failed'));
    await this.bodies.removeNow(orphans);
    this.log.info({ entries: live.size, removed: leftovers.length + orphans.length, directory: this.options.directory, bodies: this.bodies.location }, 'file cache store opened');
  }

  private async readSidecar(relative: string): Promise<CacheEntry | undefined> {
    try {
      const entry = JSON.parse(await readFile(this.fileOf(relative), 'utf8')) as CacheEntry;
      if (sidecarOf(entry.bodyPath) !== relative) throw new Error('sidecar does not name its own body');
      return entry;
    } catch (error) {
      this.log.warn({ file: relative, err: (error as Error).message }, 'unreadable cache sidecar dropped');
      return undefined;
    }
  }
}
