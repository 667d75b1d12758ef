import { logLevel, type logCreator } from 'kafkajs';
import type { LogSink } from '@bpc/support';

/**
 * kafkajs logs a failed connection on every attempt, two lines each, several
 * a second while Kafka is down. The outage is reported by the log's users
 * themselves, once (appends reject naming Kafka, subscribers log what they
 * wait for, readiness names it), so these lines pass at most once a minute,
 * with how many were held back since.
 */
const CONNECTION_FAILURE = /^(Connection error|Failed to connect to seed broker)/;
const CONNECTION_FAILURE_EVERY_MS = 60_000;

/**
 * Routes kafkajs' own logging into the LogSink (never to the console).
 * kafkajs' DEBUG level has no LogSink counterpart and is dropped.
 */
export function kafkaLogCreator(sink: LogSink, now: () => number = Date.now): logCreator {
  let connectionFailureLoggedAt = Number.NEGATIVE_INFINITY;
  let heldBack = 0;
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, ...fields } = log;
      const entry: Record<string, unknown> = { ...fields, component: 'kafkajs', namespace };
      if (CONNECTION_FAILURE.test(message)) {
        if (now() - connectionFailureLoggedAt < CONNECTION_FAILURE_EVERY_MS) {
          heldBack += 1;
          return;
        }
        connectionFailureLoggedAt = now();
        if (heldBack > 0) entry.heldBack = heldBack;
        heldBack = 0;
      }
      const text = `kafkajs: ${message}`;
      if (level === logLevel.ERROR) sink.error(entry, text);
      else if (level === logLevel.WARN) sink.warn(entry, text);
      else if (level === logLevel.INFO) sink.info(entry, text);
    };
}
