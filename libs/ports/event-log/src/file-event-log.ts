import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { LogSink, silentLog, BackoffOptions, DEFAULT_HANDLER_BACKOFF } from '@bpc/support';
import type { EventEnvelope } from '@bpc/events';
import type { EventLog, Subscription, SubscriptionSpec } from './event-log.port';
import { fsyncDir } from '@bpc/durable-fs';
import { FileSubscription } from './file/file-subscription';
import { GroupOffsetStore } from './file/group-offset-store';
import { PartitionLog } from './file/partition-log';
import { PidLock } from './file/pid-lock';
import { ENCODE_SLICE, KeyedPayload, keyedPayloads, keyedPayloadsInSlices, payloadsByPartition } from './file/payloads-by-partition';
import { assertTopicName } from './topic-name';

export interface FileEventLogOptions {
  /** Data directory; created if missing. One process at a time (pid lock). */
  readonly dir: string;
  /** Partitions of a new topic (default 4). An existing topic keeps the count it was created with. */
  readonly partitions?: number;
  /** A segment file is closed once it would grow past this size (default 64 MiB). */
  readonly segmentBytes?: number;
  /** Closed segments whose last record is older than this are deleted; undefined keeps everything. */
  readonly retentionMs?: number;
  /** The topics retention applies to; undefined: every topic. Topics that are state of record (tokens, queue) belong outside it. */
  readonly retentionTopics?: readonly string[];
  /** Delays between retries of a partition whose handler failed. */
  readonly handlerBackoff?: BackoffOptions;
  readonly log?: LogSink;
}

interface Topic {
  readonly name: string;
  readonly partitions: readonly PartitionLog[];
}

const DEFAULT_PARTITIONS = 4;
const DEFAULT_SEGMENT_BYTES = 64 * 1024 * 1024;

/**
 * The standalone event log: append-only segment files in a data directory.
 *
 * ```
 * <dir>/LOCK                                   pid of the owning process
 * <dir>/topics/<topic>/<partition>/<base>.log  segments, named by first offset
 * <dir>/groups/group-<id>.json                 committed offsets of a group
 * ```
 *
 * `append` resolves after fdatasync (group-committed per partition, see
 * PartitionLog); the same key always maps to the same partition (Kafka's
 * murmur2 partitioner); a torn tail left by a crash is cut on open, one left
 * by a failed write (a full disk) in place, by the partition's own repair,
 * after which it takes appends again (see PartitionLog). Consumer
 * groups live in this process only: a group can have one active subscription
 * at a time.
 */
export class FileEventLog implements EventLog {
  private readonly topics = new Map<string, Promise<Topic>>();
  private readonly groups = new Map<string, Promise<GroupOffsetStore>>();
  private readonly subscriptions = new Map<string, FileSubscription>();
  private readonly appending = new Set<Promise<void>>();
  /** Settles once the latest append handed its payloads to its partitions: the next one waits for it, so appends reach the partitions in call order. */
  private handedOver: Promise<unknown> = Promise.resolve();
  private retentionTimer?: NodeJS.Timeout;
  private retentionRun?: Promise<void>;
  private closing?: Promise<void>;

  private constructor(
    private readonly options: Required<Omit<FileEventLogOptions, 'retentionMs' | 'retentionTopics'>> & Pick<FileEventLogOptions, 'retentionMs' | 'retentionTopics'>,
    private readonly lock: PidLock,
  ) {}

  /** Locks the directory, recovers every existing partition's tail and starts retention. */
  static async open(options: FileEventLogOptions): Promise<FileEventLog> {
    const resolved = {
      dir: path.resolve(options.dir),
      partitions: options.partitions ?? DEFAULT_PARTITIONS,
      segmentBytes: options.segmentBytes ?? DEFAULT_SEGMENT_BYTES,
      retentionMs: options.retentionMs,
      retentionTopics: options.retentionTopics,
      handlerBackoff: options.handlerBackoff ?? DEFAULT_HANDLER_BACKOFF,
      log: options.log ?? silentLog,
    };
    validateOptions(resolved);
    await mkdir(path.join(resolved.dir, 'topics'), { recursive: true });
    await fsyncDir(resolved.dir);
    const lock = await PidLock.acquire(path.join(resolved.dir, 'LOCK'), resolved.log);
    const log = new FileEventLog(resolved, lock);
    try {
      await log.loadExistingTopics();
    } catch (error) {
      await log.closePartitions();
      await lock.release();
      throw error;
    }
    log.startRetention();
    return log;
  }

  /**
   * Durable once resolved. Concurrent calls are ordered by call order (each
   * hands its payloads to the partitions after the one called before it)
   * and share fsyncs. Encoding problems reject before anything is stored.
   * An append of more than ENCODE_SLICE events is encoded in slices between
   * which the event loop turns: a flush of thousands of bot requests would
   * otherwise hold every request the edge serves meanwhile (see
   * docs/recording.md).
   */
  append(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    if (this.closing) return Promise.reject(new Error('file event log is closed'));
    if (events.length === 0) return Promise.resolve();
    let payloads: KeyedPayload[] | Promise<KeyedPayload[]>;
    try {
      // A bad event rejects the call before anything is stored.
      payloads = events.length > ENCODE_SLICE ? keyedPayloadsInSlices(events) : keyedPayloads(events);
    } catch (error) {
      return Promise.reject(error);
    }
    const handing = this.handOver(topic, payloads, this.handedOver);
    this.handedOver = handing.catch(() => undefined);
    const run = handing.then((handed) => handed.written);
    this.appending.add(run);
    void run.catch(() => undefined).finally(() => this.appending.delete(run));
    return run;
  }

  async subscribe(spec: SubscriptionSpec): Promise<Subscription> {
    if (this.closing) throw new Error('file event log is closed');
    validateSpec(spec);
    if (this.subscriptions.has(spec.groupId)) {
      throw new Error(`consumer group ${spec.groupId} already has an active subscription on this file event log; stop it first`);
    }
    const topics = await Promise.all([...new Set(spec.topics)].map((name) => this.topic(name)));
    const offsets = await this.group(spec.groupId);
    const subscription = new FileSubscription({
      spec,
      partitions: topics.flatMap((t) => t.partitions),
      offsets,
      backoff: this.options.handlerBackoff,
      log: this.options.log,
      onStopped: () => {
        if (this.subscriptions.get(spec.groupId) === subscription) this.subscriptions.delete(spec.groupId);
      },
    });
    this.subscriptions.set(spec.groupId, subscription);
    try {
      await subscription.start();
    } catch (error) {
      this.subscriptions.delete(spec.groupId);
      throw error;
    }
    return subscription;
  }

  async check(): Promise<void> {
    if (this.closing) throw new Error('file event log is closed');
    if (!(await this.lock.stillHeld())) throw new Error(`file event log lost its lock file in ${this.options.dir}`);
    for (const topic of this.topics.values()) {
      for (const partition of (await topic).partitions) {
        if (partition.failed) throw new Error(`file event log partition ${partition.topic}/${partition.partition} takes no appends until a failed write is repaired (retrying): ${partition.failed.message}`);
      }
    }
  }

  /** Refuses new appends, waits for pending ones, stops every subscription (committing), then releases the lock. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /**
   * Deletes closed segments older than `retentionMs` in every partition of
   * the retained topics; runs on a timer and after each segment roll. Never
   * touches an active segment, so offsets never restart.
   */
  async enforceRetention(now = Date.now()): Promise<number> {
    const { retentionMs, retentionTopics } = this.options;
    if (retentionMs === undefined) return 0;
    let deleted = 0;
    for (const [name, topic] of this.topics) {
      if (retentionTopics && !retentionTopics.includes(name)) continue;
      for (const partition of (await topic).partitions) deleted += await partition.deleteSegmentsOlderThan(now - retentionMs);
    }
    return deleted;
  }

  /**
   * Queues the payloads on their partitions once they are encoded and the
   * append called before has queued its own; answers the queued writes
   * (wrapped: a promise resolved with a promise would wait for it).
   */
  private async handOver(topic: string, encoding: KeyedPayload[] | Promise<KeyedPayload[]>, previous: Promise<unknown>): Promise<{ readonly written: Promise<void> }> {
    const events = await encoding;
    await previous;
    const target = await this.topic(topic);
    const byPartition = payloadsByPartition(events, target.partitions.length);
    const written = Promise.all([...byPartition].map(([partition, list]) => target.partitions[partition].append(list)));
    return { written: written.then(() => undefined) };
  }

  private topic(name: string): Promise<Topic> {
    let topic = this.topics.get(name);
    if (!topic) {
      try {
        assertTopicName(name);
      } catch (error) {
        return Promise.reject(error);
      }
      topic = this.openTopic(name, this.options.partitions);
      this.topics.set(name, topic);
      // A topic that failed to open can be tried again later.
      topic.catch(() => this.topics.delete(name));
    }
    return topic;
  }

  private group(groupId: string): Promise<GroupOffsetStore> {
    let group = this.groups.get(groupId);
    if (!group) {
      group = GroupOffsetStore.load(path.join(this.options.dir, 'groups'), groupId, this.options.log);
      this.groups.set(groupId, group);
      group.catch(() => this.groups.delete(groupId));
    }
    return group;
  }

  private async openTopic(name: string, partitionCount: number): Promise<Topic> {
    const dir = path.join(this.options.dir, 'topics', name);
    const isNew = (await readdir(dir).catch(() => undefined)) === undefined;
    const partitions: PartitionLog[] = [];
    for (let p = 0; p < partitionCount; p += 1) {
      partitions.push(
        await PartitionLog.open(path.join(dir, String(p)), name, p, {
          segmentBytes: this.options.segmentBytes,
          log: this.options.log,
          onRoll: () => this.scheduleRetention(),
        }),
      );
    }
    if (isNew) {
      await fsyncDir(dir);
      await fsyncDir(path.dirname(dir));
    }
    return { name, partitions };
  }

  /** Opens every topic on disk now, so torn tails are cut at startup, not at first use. */
  private async loadExistingTopics(): Promise<void> {
    const topicsDir = path.join(this.options.dir, 'topics');
    for (const name of await readdir(topicsDir)) {
      const partitionDirs = (await readdir(path.join(topicsDir, name))).filter((entry) => /^\d+$/.test(entry));
      const count = partitionDirs.length;
      if (count === 0) continue;
      if (partitionDirs.some((entry) => Number(entry) >= count)) throw new Error(`event log topic ${name} has non-contiguous partition directories: ${partitionDirs.join(',')}`);
      if (count !== this.options.partitions) {
        this.options.log.warn({ topic: name, onDisk: count, configured: this.options.partitions }, 'event log: topic keeps the partition count it was created with');
      }
      const topic = this.openTopic(name, count);
      this.topics.set(name, topic);
      await topic;
    }
  }

  private startRetention(): void {
    const retentionMs = this.options.retentionMs;
    if (retentionMs === undefined) return;
    const everyMs = Math.min(60_000, Math.max(50, Math.floor(retentionMs / 4)));
    this.retentionTimer = setInterval(() => this.scheduleRetention(), everyMs);
    this.retentionTimer.unref();
    this.scheduleRetention();
  }

  /** Runs retention unless a run is already going (runs never overlap). */
  private scheduleRetention(): void {
    if (this.options.retentionMs === undefined || this.retentionRun || this.closing) return;
    this.retentionRun = this.enforceRetention()
      .then(() => undefined)
      .catch((error) => this.options.log.error({ err: error, dir: this.options.dir }, 'event log: retention failed'))
      .finally(() => {
        this.retentionRun = undefined;
      });
  }

  private async shutdown(): Promise<void> {
    if (this.retentionTimer) clearInterval(this.retentionTimer);
    await Promise.allSettled([...this.appending]);
    await Promise.allSettled([...this.subscriptions.values()].map((s) => s.stop()));
    await this.retentionRun;
    await this.closePartitions();
    await this.lock.release();
  }

  private async closePartitions(): Promise<void> {
    const topics = await Promise.allSettled([...this.topics.values()]);
    for (const topic of topics) {
      if (topic.status === 'fulfilled') await Promise.allSettled(topic.value.partitions.map((p) => p.close()));
    }
  }
}

function validateOptions(options: { partitions: number; segmentBytes: number; retentionMs?: number }): void {
  if (!Number.isInteger(options.partitions) || options.partitions < 1) throw new Error(`file event log: partitions must be a positive integer, got ${options.partitions}`);
  if (!Number.isInteger(options.segmentBytes) || options.segmentBytes < 1024) throw new Error(`file event log: segmentBytes must be an integer >= 1024, got ${options.segmentBytes}`);
  if (options.retentionMs !== undefined && !(options.retentionMs > 0)) throw new Error(`file event log: retentionMs must be positive, got ${options.retentionMs}`);
}

function validateSpec(spec: SubscriptionSpec): void {
  if (spec.topics.length === 0) throw new Error(`subscription of ${spec.groupId} names no topic`);
  if (spec.maxBatchSize !== undefined && !(Number.isInteger(spec.maxBatchSize) && spec.maxBatchSize >= 1)) {
    throw new Error(`maxBatchSize must be a positive integer, got ${spec.maxBatchSize}`);
  }
}
