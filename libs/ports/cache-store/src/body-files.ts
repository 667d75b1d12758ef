import { createReadStream, constants as fsConstants } from 'node:fs';
import { access, mkdir, readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import type { LogSink } from '@bpc/support';
import { writeFileAtomic } from '@bpc/durable-fs';
import { CacheBodyGoneError, type CacheEntry, type CacheHit } from './cache-store.port';

/** How long a replaced or invalidated body stays on disk by default, for readers that got its entry just before. */
export const DEFAULT_BODY_REMOVAL_DELAY_MS = 30_000;

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException)?.code === 'ENOENT';
}

/**
 * Body files under one directory, shared by both adapters. Paths handed in
 * and out are relative to the directory. Removals are delayed by a grace
 * period and never awaited by the caller; `close` runs the pending ones.
 */
export class BodyFiles {
  private readonly pending = new Map<NodeJS.Timeout, readonly string[]>();
  private readonly running = new Set<Promise<void>>();
  /** The directory's absolute path with a trailing separator: every body path resolves below it. */
  private readonly root: string;

  constructor(
    readonly directory: string,
    private readonly log: LogSink,
    private readonly removalDelayMs: number,
  ) {
    this.root = path.resolve(directory) + path.sep;
  }

  absolute(relative: string): string {
    const resolved = path.resolve(this.directory, relative);
    if (!resolved.startsWith(this.root)) throw new Error(`body path ${JSON.stringify(relative)} leaves the cache directory`);
    return resolved;
  }

  /** Writes a body durably; answers its relative path. */
  async write(base: string, body: Buffer): Promise<string> {
    const relative = `${base}.body`;
    await writeFileAtomic(this.absolute(relative), body);
    return relative;
  }

  /** The path is resolved when the body is read: a hit served from memory never needs it. */
  hit(entry: CacheEntry): CacheHit {
    const file = (): string => this.absolute(entry.bodyPath);
    const gone = (error: unknown): Error =>
      isMissing(error) ? new CacheBodyGoneError(`cache body ${entry.bodyPath} is gone (entry replaced or invalidated)`, { cause: error }) : (error as Error);
    return {
      entry,
      readBody: async () => {
        try {
          return await readFile(file());
        } catch (error) {
          throw gone(error);
        }
      },
      openBody: (): Readable => {
        const out = new PassThrough();
        const source = createReadStream(file());
        source.on('error', (error) => out.destroy(gone(error)));
        return source.pipe(out);
      },
    };
  }

  /** Removes files after the grace period, in the background; failures are logged (an orphan file wastes space, nothing else). */
  removeLater(relatives: readonly string[]): void {
    if (relatives.length === 0) return;
    const timer = setTimeout(() => {
      this.pending.delete(timer);
      this.track(this.removeNow(relatives));
    }, this.removalDelayMs);
    timer.unref();
    this.pending.set(timer, relatives);
  }

  async removeNow(relatives: readonly string[]): Promise<void> {
    for (const relative of relatives) {
      try {
        await unlink(this.absolute(relative));
      } catch (error) {
        if (!isMissing(error)) this.log.warn({ file: relative, err: (error as Error).message }, 'cache body removal failed; file left behind');
      }
    }
  }

  async check(): Promise<void> {
    await mkdir(this.directory, { recursive: true });
    await access(this.directory, fsConstants.W_OK);
  }

  /** Runs pending removals now and waits for running ones. */
  async close(): Promise<void> {
    for (const [timer, relatives] of this.pending) {
      clearTimeout(timer);
      this.track(this.removeNow(relatives));
    }
    this.pending.clear();
    await Promise.all([...this.running]);
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }
}
