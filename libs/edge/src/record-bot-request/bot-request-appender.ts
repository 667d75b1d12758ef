import type { AppConfig } from '@bpc/config';
import { EventAppender, EventLog, OffThreadKafkaAppender } from '@bpc/event-log';
import type { Logger } from 'pino';

/** Where the bot request recorder appends its batches. */
export const BOT_REQUEST_APPENDER = Symbol('BOT_REQUEST_APPENDER');

/**
 * On Kafka, bot requests are appended from a worker thread with its own
 * producer (kafkajs' per-message encoding would otherwise take a large share
 * of the serving thread at bot traffic rates). The file log has one writer,
 * in this thread, so there the recorder appends to it directly.
 */
export function botRequestAppender(config: AppConfig, log: EventLog, logger: Logger): EventAppender {
  if (config.adapters.event_log === 'kafka') {
    const kafka = config.kafka!;
    return new OffThreadKafkaAppender({ brokers: kafka.brokers, clientId: `${kafka.client_id}-bot-requests`, namespace: kafka.namespace }, logger.child({ component: 'bot-request-appender' }));
  }
  return { append: (topic, events) => log.append(topic, events), close: async () => undefined };
}
