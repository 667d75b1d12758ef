import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { FileCacheStore } from '@bpc/cache-store';
import { FileObjectStore } from '@bpc/object-store';
import type { AppConfig } from '@bpc/config';
import { HostCatalog } from '@bpc/domain';
import { type EventEnvelope, type QueueEvent, TOPICS } from '@bpc/events';
import { type EventLog, FileEventLog, type LogRecord, type SubscriptionSpec } from '@bpc/event-log';
import { caughtUpWithin } from '@bpc/support';
import { createLogger, ReadinessRegistry } from '@bpc/platform';
import { CacheProjector, QueueProjector } from '@bpc/projections';
import { MemoryQueueStore } from '@bpc/queue-store';
import { removeTestDataDir } from './event-audit';
import { PublishedEventValidator } from './published-event-schemas';
import { testConfig } from './test-config';

/**
 * The standalone adapters a command or query handler works on, in a fresh
 * data directory: the file event log, the memory queue store and the file
 * cache store, with the queue and cache projectors following the log as the
 * projector app runs them. A daemon handler that answers once its event is
 * projected (`recordAndProject`) then gets the real projection's answer.
 * There is no in-memory event log: the file log is standalone mode's own.
 */
export interface StandaloneState {
  readonly config: AppConfig;
  readonly hosts: HostCatalog;
  readonly log: FileEventLog;
  readonly queue: MemoryQueueStore;
  readonly cache: FileCacheStore;
  /** Records queue-topic events as if earlier commands had, and waits until both projectors have applied them. */
  given(...events: QueueEvent[]): Promise<void>;
  /** Every event on `topic` so far (per partition in log order), each checked against its published schema. */
  recorded(topic: string): Promise<EventEnvelope[]>;
  /** Closes the log: appends are refused from then on, as by an unreachable log; `recorded` still reads what it holds. */
  closeLog(): Promise<void>;
  /** Stops the projectors, closes the stores and the log, removes the directory. */
  close(): Promise<void>;
}

/** Opens the standalone adapters on `testConfig('standalone', overrides)`. */
export async function openStandaloneState(overrides: Record<string, unknown> = {}): Promise<StandaloneState> {
  const config = testConfig('standalone', overrides);
  const logger = createLogger('silent', 'handler-spec');
  const logDir = path.join(config.data_dir, 'event-log');
  const log = await FileEventLog.open({ dir: logDir });
  let logClosed = false;
  const queue = new MemoryQueueStore();
  const cache = await FileCacheStore.open({ directory: path.join(config.data_dir, 'cache'), objects: new FileObjectStore(config.data_dir) });
  const readiness = new ReadinessRegistry();
  const queueProjector = new QueueProjector(log, queue, logger, readiness);
  const cacheProjector = new CacheProjector(log, cache, logger, readiness);
  await queueProjector.onApplicationBootstrap();
  cacheProjector.onApplicationBootstrap();
  return {
    config,
    hosts: new HostCatalog(config.hosts),
    log,
    queue,
    cache,
    async given(...events) {
      await log.append(TOPICS.queue, events);
      const lag = async () => (await queueProjector.lag()) + (await cacheProjector.lag());
      if (!(await caughtUpWithin(lag, 20_000))) throw new Error('the queue and cache projectors did not apply the given events within 20 s');
    },
    async recorded(topic) {
      if (!logClosed) return recordedOn(log, topic);
      const reopened = await FileEventLog.open({ dir: logDir });
      try {
        return await recordedOn(reopened, topic);
      } finally {
        await reopened.close();
      }
    },
    async closeLog() {
      logClosed = true;
      await log.close();
    },
    async close() {
      await Promise.all([queueProjector.onApplicationShutdown(), cacheProjector.onApplicationShutdown()]);
      await Promise.all([queue.close(), cache.close()]);
      await log.close();
      removeTestDataDir(config.data_dir);
    },
  };
}

let validator: PublishedEventValidator | undefined;

/**
 * Every event on `topic` of `log` so far: read from the beginning under a
 * group of its own, until nothing is left to read. Each is checked against
 * its published schema (`deploy/event-schemas`), as a consumer would read it.
 */
export async function recordedOn(log: EventLog, topic: string): Promise<EventEnvelope[]> {
  const records: LogRecord[] = [];
  const subscription = await log.subscribe({
    groupId: `recorded-${randomUUID()}`,
    topics: [topic],
    startAt: async () => '0',
    handleBatch: async (batch) => {
      records.push(...batch.records);
    },
  });
  try {
    if (!(await caughtUpWithin(() => subscription.lag(), 20_000))) throw new Error(`${topic}: not read to its end within 20 s`);
  } finally {
    await subscription.stop();
  }
  validator ??= new PublishedEventValidator();
  const events = records.sort((a, b) => a.partition - b.partition || Number(BigInt(a.offset) - BigInt(b.offset))).map((record) => record.event);
  for (const event of events) {
    const problem = validator.problems(event);
    if (problem) throw new Error(`${event.type} ${event.id} does not match its published schema: ${problem}`);
  }
  return events;
}

/** A log passing everything to another, noting the topic and size of each append (a handler's batching is then visible). */
export class AppendsNoted implements EventLog {
  readonly appends: { readonly topic: string; readonly events: number }[] = [];

  constructor(private readonly log: EventLog) {}

  append(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    this.appends.push({ topic, events: events.length });
    return this.log.append(topic, events);
  }

  subscribe(spec: SubscriptionSpec): ReturnType<EventLog['subscribe']> {
    return this.log.subscribe(spec);
  }

  check(): Promise<void> {
    return this.log.check();
  }

  close(): Promise<void> {
    return this.log.close();
  }
}
