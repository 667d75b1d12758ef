import path from 'node:path';
import type { AppConfig } from '@bpc/config';
import type { LogSink } from '@bpc/domain';
import { EventLog, FramedPartition, OffThreadKafkaAppender, WorkerCalls } from '@bpc/event-log';
import { RecordedBotRequestColumns, requestCount } from '@bpc/events';
import type { Logger } from 'pino';

/** Appends batches of recorded bot requests to the event log, in their order; `close` releases what the appender itself opened. */
export interface BotRequestAppender {
  append(topic: string, batches: readonly RecordedBotRequestColumns[]): Promise<void>;
  /** The recorder is `behind` (its backlog grew) or no longer: its worker must not wait for idle CPU time while it is (see `botRequestAppender`). */
  keepUp(behind: boolean): void;
  close(): Promise<void>;
}

/** Where the bot request recorder appends its batches. */
export const BOT_REQUEST_APPENDER = Symbol('BOT_REQUEST_APPENDER');

/** A log that takes records framed ahead of their append: the file event log. */
export interface FramedAppendLog {
  nextOffsets(topic: string): Promise<number[]>;
  appendFramed(topic: string, parts: readonly FramedPartition[]): Promise<void>;
}

/** One call of the framing worker: batches of requests and where each partition of their topic goes on. */
export interface FramesRequest {
  readonly batches: readonly RecordedBotRequestColumns[];
  readonly nextOffsets: readonly number[];
}

export interface FramesAnswer {
  readonly parts: readonly FramedPartition[];
}

/**
 * The recorder's batches are columns of the requests' fields (see
 * `RecordedBotRequests`); their events are serialised in a worker thread, so
 * the thread that serves bots only clones the columns. On Kafka that worker
 * also appends them, with its own producer (kafkajs' per-message encoding
 * would take a large share of a busy thread too). On the file log, whose one
 * writer is this thread, the worker serialises and frames the events for the
 * offsets the partitions are at (`FileEventLog.appendFramed`), and this
 * thread writes the frames as they are.
 *
 * With `edge.record_worker_idle`, that worker runs on idle CPU time only
 * (Linux `SCHED_IDLE`) while the recorder keeps up: saturated serving then
 * keeps its core, where a worker at normal priority took turns on it (the
 * scheduler put the worker, or whatever it displaced, on the serving
 * thread's core). Behind, the worker gets its fair share until it caught up.
 */
export function botRequestAppender(config: AppConfig, log: EventLog, logger: Logger): BotRequestAppender {
  const workerLog = logger.child({ component: 'bot-request-appender' });
  if (config.adapters.event_log === 'kafka') {
    const kafka = config.kafka!;
    const offThread = new OffThreadKafkaAppender({ brokers: kafka.brokers, clientId: `${kafka.client_id}-bot-requests`, namespace: kafka.namespace }, workerLog, config.edge.record_worker_idle);
    return { append: (topic, batches) => offThread.appendRecordedBotRequests(topic, batches), keepUp: (behind) => offThread.keepUp(behind), close: () => offThread.close() };
  }
  if (!isFramedAppendLog(log)) throw new Error('the file event log adapter must take framed appends');
  return new FramedBotRequestAppender(log, workerLog, config.edge.record_worker_idle);
}

function isFramedAppendLog(log: EventLog): log is EventLog & FramedAppendLog {
  const candidate = log as Partial<FramedAppendLog>;
  return typeof candidate.nextOffsets === 'function' && typeof candidate.appendFramed === 'function';
}

/** See `botRequestAppender`: the framing worker is started on first use. */
class FramedBotRequestAppender implements BotRequestAppender {
  private readonly worker: WorkerCalls<FramesRequest, FramesAnswer>;

  constructor(
    private readonly log: FramedAppendLog,
    workerLog: LogSink,
    idle: boolean,
  ) {
    this.worker = new WorkerCalls({ script: path.join(__dirname, 'bot-request-frames-worker'), label: 'bot request framing worker', log: workerLog, idle });
  }

  keepUp(behind: boolean): void {
    this.worker.keepUp(behind);
  }

  /** All the batches in one write and one fsync per partition. */
  async append(topic: string, batches: readonly RecordedBotRequestColumns[]): Promise<void> {
    if (batches.every((batch) => requestCount(batch) === 0)) return;
    const nextOffsets = await this.log.nextOffsets(topic);
    const { parts } = await this.worker.call({ batches, nextOffsets });
    // Typed arrays cross threads as plain Uint8Arrays: the frames become a Buffer again (same memory).
    await this.log.appendFramed(
      topic,
      parts.map(({ partition, records }) => ({ partition, records: { firstOffset: records.firstOffset, bytes: Buffer.from(records.bytes.buffer, records.bytes.byteOffset, records.bytes.byteLength), ends: records.ends } })),
    );
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
