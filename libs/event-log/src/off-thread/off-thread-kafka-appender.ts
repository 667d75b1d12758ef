import path from 'node:path';
import type { LogSink } from '@bpc/domain';
import { EventEnvelope, RecordedBotRequestColumns, requestCount } from '@bpc/events';
import type { AppendRequest, KafkaAppendWorkerOptions } from './off-thread-protocol';
import { WorkerCalls } from './worker-calls';

/** A roomy young generation: encoding leaves short-lived garbage per message, and fewer scavenges cost less. */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 96 };

/**
 * Appends to Kafka from a worker thread: kafkajs encodes every message in
 * JavaScript (records, varints, CRC, headers), which on a busy thread costs
 * more than the request that produced the event. The caller's thread only
 * clones the envelopes, or the columns of recorded bot requests (serialised
 * in the worker), into it; an append resolves once
 * the brokers acknowledged (acks -1), exactly like `KafkaEventLog.append`,
 * and rejects with its error.
 *
 * The worker is started on first use. If it dies, appends in flight reject
 * and the next append starts a new one.
 */
export class OffThreadKafkaAppender {
  private readonly worker: WorkerCalls<AppendRequest, void>;

  /** `idle`: the worker runs on idle CPU time only, unless told to keep up (see `WorkerCallsOptions.idle`). */
  constructor(options: KafkaAppendWorkerOptions, log: LogSink, idle = false) {
    this.worker = new WorkerCalls({ script: path.join(__dirname, 'kafka-append-worker'), workerData: options, resourceLimits: WORKER_LIMITS, label: 'off-thread Kafka appender', log, idle });
  }

  /** See `WorkerCalls.keepUp`. */
  keepUp(behind: boolean): void {
    this.worker.keepUp(behind);
  }

  append(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    return events.length === 0 ? Promise.resolve() : this.worker.call({ topic, events });
  }

  /**
   * Batches of recorded bot requests, their events serialised in the worker
   * (see `RecordedBotRequests`) and appended batch after batch: the columns
   * are cloned, which costs this thread little.
   */
  appendRecordedBotRequests(topic: string, batches: readonly RecordedBotRequestColumns[]): Promise<void> {
    return batches.every((batch) => requestCount(batch) === 0) ? Promise.resolve() : this.worker.call({ topic, botRequests: batches });
  }

  /** Waits for appends in flight, then disconnects the worker's producer and ends the thread. */
  close(): Promise<void> {
    return this.worker.close();
  }
}
