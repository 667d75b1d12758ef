import type { AppConfig } from '@bpc/config';
import { EventLog, openKafkaEventLog } from '@bpc/event-log';
import { BotRequestRecorded, TOPICS } from '@bpc/events';
import type { Logger } from 'pino';
import type { BotRequestSink } from './bot-request-sink';

/** Events per produce request on Kafka: about 600 KB of bot requests, within the 1 MB a broker takes per record batch by default. */
export const KAFKA_EVENTS_PER_APPEND = 1_000;

/** The file log adapter: the process's own event log (the file log has one writer, this process), left open at close (its owner closes it). */
export function fileLogBotRequestSink(log: EventLog): BotRequestSink {
  return { append: (events) => log.append(TOPICS.botRequests, events), close: () => Promise.resolve() };
}

/**
 * The Kafka adapter: a producer of its own (client id `<kafka.client_id>-
 * bot-requests`, so brokers can meter and quota recording apart from the
 * other events), appending with the event log's settings (acks -1), at
 * most KAFKA_EVENTS_PER_APPEND events per produce request.
 */
export function kafkaBotRequestSink(config: AppConfig, logger: Logger): BotRequestSink {
  const kafka = config.kafka!;
  const log = openKafkaEventLog({ brokers: kafka.brokers, clientId: `${kafka.client_id}-bot-requests`, namespace: kafka.namespace, log: logger });
  return {
    append: async (events: readonly BotRequestRecorded[]) => {
      for (let start = 0; start < events.length; start += KAFKA_EVENTS_PER_APPEND) await log.append(TOPICS.botRequests, events.slice(start, start + KAFKA_EVENTS_PER_APPEND));
    },
    close: () => log.close(),
  };
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
