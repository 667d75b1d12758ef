import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { LogSink, silentLog } from '@bpc/support';
import { MemoryQueueStore, MemoryQueueStoreOptions, QueueStoreSnapshot } from './memory-queue-store';

export const QUEUE_SNAPSHOT_FILE = 'queue-store.snapshot.json';

export interface SnapshotPersistenceOptions extends MemoryQueueStoreOptions {
  readonly dir: string;
  /** How often a changed store is written. */
  readonly intervalMs?: number;
  readonly log?: LogSink;
}

/**
 * Keeps a memory queue store's snapshot on disk so startup replays only the
 * log written after it. The snapshot carries the store's checkpoints, so the
 * projector resumes exactly where the snapshot stands; a missing or unreadable
 * snapshot means a full replay, never a failed start.
 */
export class MemoryQueueStoreSnapshots {
  private timer?: NodeJS.Timeout;
  private lastCheckpoints = '';

  private constructor(
    readonly store: MemoryQueueStore,
    private readonly file: string,
    private readonly log: LogSink,
  ) {}

  static open(options: SnapshotPersistenceOptions): MemoryQueueStoreSnapshots {
    const log = options.log ?? silentLog;
    mkdirSync(options.dir, { recursive: true });
    const file = path.join(options.dir, QUEUE_SNAPSHOT_FILE);
    let snapshot = readSnapshot(file, log);
    let store: MemoryQueueStore;
    try {
      store = snapshot ? MemoryQueueStore.fromSnapshot(snapshot, options) : new MemoryQueueStore(options);
    } catch (error) {
      log.warn({ err: error, file }, 'queue store snapshot not usable: rebuilding from the whole log');
      snapshot = undefined;
      store = new MemoryQueueStore(options);
    }
    const persistence = new MemoryQueueStoreSnapshots(store, file, log);
    persistence.lastCheckpoints = snapshot ? JSON.stringify(snapshot.checkpoints) : '';
    persistence.timer = setInterval(() => persistence.writeIfChanged(), options.intervalMs ?? 30_000);
    persistence.timer.unref();
    return persistence;
  }

  /** Writes when the projection moved since the last write. */
  writeIfChanged(): void {
    const snapshot = this.store.snapshot();
    const checkpoints = JSON.stringify(snapshot.checkpoints);
    if (checkpoints === this.lastCheckpoints) return;
    this.write(snapshot);
    this.lastCheckpoints = checkpoints;
  }

  /** Final snapshot on shutdown. */
  close(): void {
    clearInterval(this.timer);
    this.write(this.store.snapshot());
  }

  private write(snapshot: QueueStoreSnapshot): void {
    try {
      writeAtomically(this.file, JSON.stringify(snapshot));
    } catch (error) {
      // A snapshot only shortens startup; the log still holds every event.
      this.log.warn({ err: error, file: this.file }, 'queue store snapshot not written');
    }
  }
}

function readSnapshot(file: string, log: LogSink): QueueStoreSnapshot | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  try {
    return JSON.parse(text) as QueueStoreSnapshot;
  } catch (error) {
    log.warn({ err: error, file }, 'queue store snapshot unreadable: rebuilding from the whole log');
    return undefined;
  }
}

function writeAtomically(file: string, content: string): void {
  const tmp = `${file}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  const dirFd = openSync(path.dirname(file), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}
