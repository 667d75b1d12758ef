import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LogSink } from '@bpc/support';
import { mkdirDurably, removeAtomicWriteLeftovers, writeFileAtomic } from '@bpc/durable-fs';

interface OffsetsFile {
  readonly groupId: string;
  /** topic → partition → next offset to read. */
  readonly offsets: Record<string, Record<string, number>>;
}

/** Least time between two writes of a group's file. */
const MIN_WRITE_INTERVAL_MS = 1_000;

/**
 * Committed offsets of one consumer group, in one JSON file replaced
 * atomically (tmp + fsync + rename + directory fsync).
 *
 * `commit` updates memory at once and persists in the background, at most
 * one write a second: commits in between are coalesced into the next write,
 * so a consumer handling a batch every few milliseconds (the explorer
 * projector behind the edge's bot requests) costs two fsyncs a second, not
 * two per batch. A crash can therefore lose the last second of commits,
 * which only means those records are delivered again (at-least-once);
 * `flush` makes everything committed so far durable at once (used by
 * `Subscription.stop`).
 */
export class GroupOffsetStore {
  private readonly offsets: Map<string, Map<number, number>>;
  private dirty = false;
  private writing?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private lastWriteAt = Number.NEGATIVE_INFINITY;

  private constructor(
    private readonly file: string,
    readonly groupId: string,
    offsets: Map<string, Map<number, number>>,
    private readonly log: LogSink,
    private readonly minWriteIntervalMs: number,
  ) {
    this.offsets = offsets;
  }

  static async load(dir: string, groupId: string, log: LogSink, minWriteIntervalMs = MIN_WRITE_INTERVAL_MS): Promise<GroupOffsetStore> {
    await mkdirDurably(dir);
    const file = path.join(dir, groupFileName(groupId));
    // A crash between write and rename leaves `<file>.tmp-*`; the event log's lock makes this store the file's only writer.
    await removeAtomicWriteLeftovers(file);
    const offsets = new Map<string, Map<number, number>>();
    const stored = await readOffsetsFile(file);
    for (const [topic, partitions] of Object.entries(stored?.offsets ?? {})) {
      offsets.set(topic, new Map(Object.entries(partitions).map(([p, next]) => [Number(p), next])));
    }
    return new GroupOffsetStore(file, groupId, offsets, log, minWriteIntervalMs);
  }

  /** The committed next offset, or undefined when the group never committed on this partition. */
  get(topic: string, partition: number): number | undefined {
    return this.offsets.get(topic)?.get(partition);
  }

  commit(topic: string, partition: number, nextOffset: number): void {
    let partitions = this.offsets.get(topic);
    if (!partitions) this.offsets.set(topic, (partitions = new Map()));
    partitions.set(partition, nextOffset);
    this.dirty = true;
    this.schedule();
  }

  /** Resolves when every commit made so far is durable; rejects if it cannot be written. */
  async flush(): Promise<void> {
    if (this.writing) await this.writing.catch(() => undefined);
    if (this.dirty) await this.kick();
  }

  /** A write of what is committed, once a second has passed since the last one began (none while one is on disk: it schedules the next). */
  private schedule(): void {
    if (this.writing || this.timer) return;
    const wait = this.lastWriteAt + this.minWriteIntervalMs - Date.now();
    if (wait <= 0) {
      void this.kick().catch(() => undefined);
      return;
    }
    // Not keeping the process alive: stopping a subscription flushes.
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.kick().catch(() => undefined);
    }, wait);
    this.timer.unref();
  }

  /** Writes what is committed now (a write on disk is joined); a commit made meanwhile is scheduled after it. */
  private kick(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.writing) {
      const run = this.write().finally(() => {
        this.writing = undefined;
        if (this.dirty) this.schedule();
      });
      run.catch((error) => this.log.error({ groupId: this.groupId, file: this.file, err: error }, 'event log: cannot persist committed offsets; retrying'));
      this.writing = run;
    }
    return this.writing;
  }

  private async write(): Promise<void> {
    this.dirty = false;
    this.lastWriteAt = Date.now();
    try {
      await writeFileAtomic(this.file, this.serialize());
    } catch (error) {
      this.dirty = true;
      throw error;
    }
  }

  private serialize(): string {
    const offsets: Record<string, Record<string, number>> = {};
    for (const [topic, partitions] of this.offsets) offsets[topic] = Object.fromEntries(partitions);
    const content: OffsetsFile = { groupId: this.groupId, offsets };
    return `${JSON.stringify(content, null, 1)}\n`;
  }
}

/** Readable file names for ordinary group ids, a hash for long or odd ones. */
function groupFileName(groupId: string): string {
  const readable = encodeURIComponent(groupId);
  if (readable.length <= 180) return `group-${readable}.json`;
  return `group-sha256-${createHash('sha256').update(groupId).digest('hex')}.json`;
}

async function readOffsetsFile(file: string): Promise<OffsetsFile | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  // The file is only ever replaced by rename, so it is complete or absent; a parse error is real damage.
  return JSON.parse(text) as OffsetsFile;
}
