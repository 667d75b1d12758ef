import type { AppConfig } from '@bpc/config';
import { EventLog, OffThreadKafkaAppender } from '@bpc/event-log';
import { BOT_REQUEST_RECORDED, BotRequestTuple } from '@bpc/events';
import type { Logger } from 'pino';
import { OffThreadBotRequestEncoder } from './off-thread-bot-request-encoder';

/** Appends batches of recorded bot requests to the event log; `close` releases what the appender itself opened. */
export interface BotRequestAppender {
  append(topic: string, requests: readonly BotRequestTuple[]): Promise<void>;
  close(): Promise<void>;
}

/** Where the bot request recorder appends its batches. */
export const BOT_REQUEST_APPENDER = Symbol('BOT_REQUEST_APPENDER');

/**
 * On Kafka, bot requests are appended from a worker thread with its own
 * producer (kafkajs' per-message encoding would otherwise take a large share
 * of the serving thread at bot traffic rates); they cross as tuples, and the
 * worker serialises them. The file log has one writer, in this thread: there
 * a worker only serialises the batch, and this thread appends the bytes.
 * Either way a batch is serialised by `encodeBotRequests`, not envelope by
 * envelope.
 */
export function botRequestAppender(config: AppConfig, log: EventLog, logger: Logger): BotRequestAppender {
  if (config.adapters.event_log === 'kafka') {
    const kafka = config.kafka!;
    const offThread = new OffThreadKafkaAppender({ brokers: kafka.brokers, clientId: `${kafka.client_id}-bot-requests`, namespace: kafka.namespace }, logger.child({ component: 'bot-request-appender' }));
    return { append: (topic, requests) => offThread.appendTuples(topic, BOT_REQUEST_RECORDED, requests), close: () => offThread.close() };
  }
  const encoder = new OffThreadBotRequestEncoder(logger.child({ component: 'bot-request-encoder' }));
  return { append: async (topic, requests) => log.appendEncoded(topic, await encoder.encode(requests)), close: () => encoder.close() };
}
