import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LogSink } from '@bpc/domain';
import { mkdirDurably, removeAtomicWriteLeftovers, writeFileAtomic } from '@bpc/durable-fs';

interface OffsetsFile {
  readonly groupId: string;
  /** topic → partition → next offset to read. */
  readonly offsets: Record<string, Record<string, number>>;
}

/**
 * Committed offsets of one consumer group, in one JSON file replaced
 * atomically (tmp + fsync + rename + directory fsync).
 *
 * `commit` updates memory at once and persists in the background; commits
 * that arrive while a write is on disk are coalesced into the next write, so
 * a fast consumer costs one file write per disk round trip, not per batch.
 * A crash can therefore lose the last few commits, which only means those
 * records are delivered again (at-least-once); `flush` makes everything
 * committed so far durable (used by `Subscription.stop`).
 */
export class GroupOffsetStore {
  private readonly offsets: Map<string, Map<number, number>>;
  private dirty = false;
  private writing?: Promise<void>;

  private constructor(
    private readonly file: string,
    readonly groupId: string,
    offsets: Map<string, Map<number, number>>,
    private readonly log: LogSink,
  ) {
    this.offsets = offsets;
  }

  static async load(dir: string, groupId: string, log: LogSink): Promise<GroupOffsetStore> {
    await mkdirDurably(dir);
    const file = path.join(dir, groupFileName(groupId));
    // A crash between write and rename leaves `<file>.tmp-*`; the event log's lock makes this store the file's only writer.
    await removeAtomicWriteLeftovers(file);
    const offsets = new Map<string, Map<number, number>>();
    const stored = await readOffsetsFile(file);
    for (const [topic, partitions] of Object.entries(stored?.offsets ?? {})) {
      offsets.set(topic, new Map(Object.entries(partitions).map(([p, next]) => [Number(p), next])));
    }
    return new GroupOffsetStore(file, groupId, offsets, log);
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
    void this.kick().catch(() => undefined);
  }

  /** Resolves when every commit made so far is durable; rejects if it cannot be written. */
  async flush(): Promise<void> {
    if (this.writing) await this.writing.catch(() => undefined);
    if (this.dirty) await this.kick();
  }

  private kick(): Promise<void> {
    if (!this.writing) {
      const run = this.drain().finally(() => {
        this.writing = undefined;
      });
      run.catch((error) => this.log.error({ groupId: this.groupId, file: this.file, err: error }, 'event log: cannot persist committed offsets; retrying on the next commit'));
      this.writing = run;
    }
    return this.writing;
  }

  private async drain(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      try {
        await writeFileAtomic(this.file, this.serialize());
      } catch (error) {
        this.dirty = true;
        throw error;
      }
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
