import { randomBytes } from 'node:crypto';
import { readdir, readFile, rename, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { createFileAtomic } from '@bpc/durable-fs';
import { retryUntilStopped } from '@bpc/support';
import type { EventEnvelope } from '@bpc/events';
import type { Logger } from 'pino';

/** The spill directory, under `data_dir`. */
export const SPILL_DIR = 'edge-spill';
/** What the spill directory holds at most, all files together: a spill that would pass it keeps its newest events. */
export const SPILL_MAX_BYTES = 64 * 1024 * 1024;
/** Spilled events appended at once on replay: about the size of one of the recorder's own batches (`edge.record_batch_max`'s default). */
const REPLAY_CHUNK = 1_000;
/** A replay the log keeps refusing is logged on its first attempt and then once every this many (every 100 s at the 5 s backoff cap). */
const REPLAY_LOG_EVERY = 20;
/** A temporary file older than this is a crash's leftover, not another edge's spill in progress (the directory may be a shared volume). */
const STALE_TEMP_MS = 60 * 60 * 1000;

const NEWLINE = Buffer.from('\n');

/** Which events a spill holds: its files' name prefix, their event type, and what log lines call them. */
export interface SpillKind {
  readonly prefix: string;
  readonly type: string;
  readonly noun: string;
}

/** Where a spill appends its events on replay. */
export interface SpillSink<E> {
  append(events: readonly E[]): Promise<void>;
}

/**
 * Events the event log could not take at shutdown (bot requests, render
 * facts: one `SpillKind` each), kept on local disk for the next start: one
 * file per shutdown, `<data_dir>/edge-spill/<prefix>-<ms>-<random>.ndjson`
 * (`bot-requests-…`), each line one event's JSON, written whole or not at
 * all (temporary file, fsync, link). All files of a kind together hold at
 * most SPILL_MAX_BYTES.
 *
 * At start the edge appends every file, oldest first, and deletes it once
 * the log took it all (retried with backoff while the log refuses, until
 * the edge stops; the rest waits for the next start). A crash between the
 * append and the delete, or two edges sharing the directory, appends a file
 * twice: its events keep the ids they were recorded with, and the
 * projections fold events by id.
 */
export class EventSpill<E extends EventEnvelope> {
  private readonly spillFile: RegExp;
  private readonly spillTemp: RegExp;

  constructor(
    private readonly dir: string,
    private readonly sink: SpillSink<E>,
    private readonly logger: Logger,
    private readonly maxBytes: number = SPILL_MAX_BYTES,
    private readonly kind: SpillKind,
  ) {
    this.spillFile = new RegExp(`^${kind.prefix}-\\d{13}-[0-9a-f]{8}\\.ndjson$`);
    this.spillTemp = new RegExp(`^${kind.prefix}-\\d{13}-[0-9a-f]{8}\\.ndjson\\.tmp-[0-9a-f]{8}$`);
  }

  /**
   * Writes `events` (oldest first) as one new spill file; answers how many
   * it took: all of them, or the newest that fit in the room left. Throws
   * when the file could not be written (nothing was taken then).
   */
  async write(events: readonly E[]): Promise<number> {
    const lines = events.map((event) => Buffer.from(`${JSON.stringify(event)}\n`, 'utf8'));
    let room = this.maxBytes - (await this.usedBytes());
    let first = lines.length;
    while (first > 0 && lines[first - 1].length <= room) {
      first -= 1;
      room -= lines[first].length;
    }
    if (first === lines.length) return 0;
    const data = Buffer.concat(lines.slice(first));
    const file = path.join(this.dir, `${this.kind.prefix}-${String(Date.now()).padStart(13, '0')}-${randomBytes(4).toString('hex')}.ndjson`);
    if (!(await createFileAtomic(file, data))) throw new Error(`spill file ${file} exists already`);
    return events.length - first;
  }

  /** Appends every spill file to the log, oldest first (see the class comment); resolves once done or `signal` aborted, never rejects. */
  async replay(signal: AbortSignal): Promise<void> {
    try {
      await this.removeStaleTemps();
      for (const name of await this.files()) {
        if (signal.aborted || !(await this.replayFile(name, signal))) return;
      }
    } catch (error) {
      this.logger.error({ err: error, dir: this.dir }, `spilled ${this.kind.noun} could not be read; they stay for the next start`);
    }
  }

  /** Appends one file's events, chunk by chunk, then deletes it; false when stopped first. */
  private async replayFile(name: string, signal: AbortSignal): Promise<boolean> {
    const file = path.join(this.dir, name);
    const events = await this.eventsOf(file);
    if (!events) return true;
    for (let start = 0; start < events.length; start += REPLAY_CHUNK) {
      const chunk = events.slice(start, start + REPLAY_CHUNK);
      const appended = await retryUntilStopped(() => this.sink.append(chunk).then(() => true), signal, {
        failed: (error, attempt) => {
          if (attempt % REPLAY_LOG_EVERY === 1) this.logger.warn({ err: error, file, attempt }, `event log refused spilled ${this.kind.noun}; retrying`);
        },
      });
      if (!appended) return false;
    }
    await unlink(file).catch((error: NodeJS.ErrnoException) => {
      // Another edge sharing the directory appended it too.
      if (error.code !== 'ENOENT') throw error;
    });
    this.logger.info({ file, events: events.length }, `spilled ${this.kind.noun} appended to the event log`);
    return true;
  }

  /** The file's events; undefined (the file set aside as `.unreadable`, logged) when a line is not one. */
  private async eventsOf(file: string): Promise<E[] | undefined> {
    const data = await readFile(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!data) return undefined;
    const events: E[] = [];
    for (let start = 0; start < data.length; ) {
      const end = data.indexOf(NEWLINE, start);
      const event = end < 0 ? undefined : spilledEvent<E>(data.subarray(start, end), this.kind.type);
      if (!event) {
        const keptAs = `${file}.unreadable`;
        await rename(file, keptAs);
        this.logger.error({ file: keptAs, atByte: start }, `a spill file holds something that is not a ${this.kind.type} event: set aside, not appended`);
        return undefined;
      }
      events.push(event);
      start = end + 1;
    }
    return events;
  }

  /** Spill files, oldest first (their names start with the time they were written). */
  private async files(): Promise<string[]> {
    const names = await readdir(this.dir).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return [];
      throw error;
    });
    return names.filter((name) => this.spillFile.test(name)).sort();
  }

  private async usedBytes(): Promise<number> {
    const sizes = await Promise.all((await this.files()).map((name) => stat(path.join(this.dir, name)).then((s) => s.size, () => 0)));
    return sizes.reduce((sum, size) => sum + size, 0);
  }

  private async removeStaleTemps(): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const cutoff = Date.now() - STALE_TEMP_MS;
    for (const name of names.filter((n) => this.spillTemp.test(n))) {
      const file = path.join(this.dir, name);
      const info = await stat(file).catch(() => undefined);
      if (info && info.mtimeMs < cutoff) await unlink(file).catch(() => undefined);
    }
  }
}

/** One spilled line as the event it holds, or undefined when it is not the JSON of a `type` event. */
function spilledEvent<E>(json: Buffer, expectedType: string): E | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json.toString('utf8'));
  } catch {
    return undefined;
  }
  const { type, version, id, key, payload } = (parsed ?? {}) as Record<string, unknown>;
  if (type !== expectedType || typeof version !== 'number' || typeof id !== 'string' || typeof key !== 'string' || typeof payload !== 'object' || payload === null) return undefined;
  return parsed as E;
}
