import { parentPort, workerData } from 'node:worker_threads';
import type { LogSink } from '@bpc/domain';
import { TUPLE_EVENT_ENCODERS } from '@bpc/events';
import { appendEncodedFrom } from '../append-encoded-from';
import { describeError } from '../kafka/kafka-errors';
import { openKafkaEventLog } from '../open-kafka-event-log';
import type { FromWorker, KafkaAppendWorkerOptions, ToWorker } from './off-thread-protocol';

/**
 * Worker thread of `OffThreadKafkaAppender`: its own Kafka event log, fed
 * append by append by the main thread. Log lines go back to the main thread's
 * logger (fields reduced to what can cross threads).
 */
const port = parentPort!;
const options = workerData as KafkaAppendWorkerOptions;
const post = (message: FromWorker): void => port.postMessage(message);

const forward =
  (level: 'info' | 'warn' | 'error') =>
  (fields: object, message: string): void => {
    const plain = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v instanceof Error ? describeError(v) : v]));
    try {
      post({ kind: 'log', level, fields: plain, message });
    } catch {
      post({ kind: 'log', level, fields: {}, message });
    }
  };
const log: LogSink = { info: forward('info'), warn: forward('warn'), error: forward('error') };

const eventLog = openKafkaEventLog({ brokers: options.brokers, clientId: options.clientId, namespace: options.namespace, log });

/** Envelopes as they are; tuples serialised by their type's batch encoder (which may throw: that rejects the append). */
function appendBatch(message: Extract<ToWorker, { kind: 'append' }>): Promise<void> {
  if ('events' in message) return eventLog.append(message.topic, message.events);
  return appendEncodedFrom(eventLog, message.topic, () => TUPLE_EVENT_ENCODERS[message.type](message.tuples));
}

port.on('message', (message: ToWorker) => {
  if (message.kind === 'close') {
    eventLog
      .close()
      .catch((error: unknown) => log.warn({ err: error }, 'off-thread Kafka appender: closing the producer failed'))
      .finally(() => port.close());
    return;
  }
  appendBatch(message).then(
    () => post({ kind: 'appended', id: message.id }),
    (error: unknown) => post({ kind: 'appended', id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
