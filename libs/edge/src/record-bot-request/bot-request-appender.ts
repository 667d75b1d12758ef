import type { AppConfig } from '@bpc/config';
import { EventLog, OffThreadKafkaAppender } from '@bpc/event-log';
import { EncodedEventBatch, encodedEvents } from '@bpc/events';
import type { Logger } from 'pino';

/** Appends batches of recorded bot requests to the event log; `close` releases what the appender itself opened. */
export interface BotRequestAppender {
  append(topic: string, batch: EncodedEventBatch): Promise<void>;
  close(): Promise<void>;
}

/** Where the bot request recorder appends its batches. */
export const BOT_REQUEST_APPENDER = Symbol('BOT_REQUEST_APPENDER');

/**
 * The recorder's batches are serialised already (see `BotRequestBuffer`).
 * On Kafka they are appended from a worker thread with its own producer
 * (kafkajs' per-message encoding would otherwise take a large share of the
 * serving thread at bot traffic rates), which gets a copy of the batch's
 * bytes. The file log has one writer, this thread, and appends the bytes
 * as they are.
 */
export function botRequestAppender(config: AppConfig, log: EventLog, logger: Logger): BotRequestAppender {
  if (config.adapters.event_log === 'kafka') {
    const kafka = config.kafka!;
    const offThread = new OffThreadKafkaAppender({ brokers: kafka.brokers, clientId: `${kafka.client_id}-bot-requests`, namespace: kafka.namespace }, logger.child({ component: 'bot-request-appender' }));
    return { append: (topic, batch) => offThread.appendEncoded(topic, batch), close: () => offThread.close() };
  }
  return { append: (topic, batch) => log.appendEncoded(topic, encodedEvents(batch)), close: async () => undefined };
}
