import path from 'node:path';
import type { EventEnvelope } from '@bpc/events';
import { type LogSink, WorkerCalls } from '@bpc/support';
import type { KafkaEventLogOptions } from '../kafka-event-log';

/** One append as it crosses to the worker. */
export interface OffThreadAppend {
  readonly topic: string;
  readonly events: readonly EventEnvelope[];
}

/** What the worker's own Kafka event log is opened with (its log lines go to the owner's). */
export type OffThreadLogOptions = Omit<KafkaEventLogOptions, 'log' | 'offThread' | 'handlerBackoff'>;

/**
 * Appends of some topics, made by a Kafka event log in a worker thread
 * (`kafka-append-worker`, started on first use) with a producer of its own:
 * stock kafkajs encodes each message in JavaScript, 20–29 µs per bot
 * request, several times what serving one takes, so this thread only clones
 * the events into the worker. A refused append rejects with a plain `Error`
 * carrying the worker's message.
 */
export class OffThreadAppends {
  private readonly topics: ReadonlySet<string>;
  private readonly worker: WorkerCalls<OffThreadAppend, void>;

  constructor(topics: readonly string[], options: OffThreadLogOptions, log: LogSink) {
    this.topics = new Set(topics);
    this.worker = new WorkerCalls({ script: path.join(__dirname, 'kafka-append-worker'), workerData: options, label: `kafka appends of ${topics.join(', ')}`, log });
  }

  takes(topic: string): boolean {
    return this.topics.has(topic);
  }

  append(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    return this.worker.call({ topic, events });
  }

  /** Waits for the appends in flight, then closes the worker's producer and ends the thread. */
  close(): Promise<void> {
    return this.worker.close();
  }
}
