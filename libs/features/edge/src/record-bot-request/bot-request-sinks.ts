import path from 'node:path';
import type { AppConfig } from '@bpc/config';
import { EventLog, OpenKafkaEventLogOptions } from '@bpc/event-log';
import { WorkerCalls } from '@bpc/support';
import { BotRequestRecorded, TOPICS } from '@bpc/events';
import type { Logger } from 'pino';
import type { BotRequestSink } from './bot-request-sink';

/** Events per produce request on Kafka: about 600 KB of bot requests, within the 1 MB a broker takes per record batch by default. */
const KAFKA_EVENTS_PER_APPEND = 1_000;

/** The file log adapter: the process's own event log (the file log has one writer, this process), left open at close (its owner closes it). */
export function fileLogBotRequestSink(log: EventLog): BotRequestSink {
  return { append: (events) => log.append(TOPICS.botRequests, events), close: () => Promise.resolve() };
}

/** What the Kafka adapter's worker opens (see `kafkaBotRequestSink`). */
export interface KafkaSinkOptions extends Pick<OpenKafkaEventLogOptions, 'brokers' | 'clientId' | 'namespace'> {
  readonly eventsPerAppend: number;
}

/**
 * The Kafka adapter: a Kafka event log of its own (client id
 * `<kafka.client_id>-bot-requests`, so brokers can meter and quota
 * recording apart from the other events), appending with the event log's
 * settings (acks -1), at most KAFKA_EVENTS_PER_APPEND events per produce
 * request, from a worker thread (`kafka-sink-worker`, started on first use):
 * stock kafkajs encodes every message in JavaScript, about 20 µs per bot
 * request, several times what serving it takes. The serving thread only
 * clones the events into it.
 */
export function kafkaBotRequestSink(config: AppConfig, logger: Logger): BotRequestSink {
  const kafka = config.kafka!;
  const workerData: KafkaSinkOptions = { brokers: kafka.brokers, clientId: `${kafka.client_id}-bot-requests`, namespace: kafka.namespace, eventsPerAppend: KAFKA_EVENTS_PER_APPEND };
  const worker = new WorkerCalls<readonly BotRequestRecorded[], void>({ script: path.join(__dirname, 'kafka-sink-worker'), workerData, label: 'bot request Kafka sink', log: logger });
  return { append: (events) => (events.length === 0 ? Promise.resolve() : worker.call(events)), close: () => worker.close() };
}

/** The sink of the configured event log adapter. */
export function openBotRequestSink(config: AppConfig, log: EventLog, logger: Logger): BotRequestSink {
  switch (config.adapters.event_log) {
    case 'file':
      return fileLogBotRequestSink(log);
    case 'kafka':
      return kafkaBotRequestSink(config, logger.child({ component: 'bot-request-sink' }));
  }
}
