import { logLevel, type logCreator } from 'kafkajs';
import type { LogSink } from '@bpc/domain';

/**
 * Routes kafkajs' own logging into the LogSink (never to the console).
 * kafkajs' DEBUG level has no LogSink counterpart and is dropped.
 */
export function kafkaLogCreator(sink: LogSink): logCreator {
  return () =>
    ({ namespace, level, log }) => {
      const { message, timestamp: _timestamp, ...fields } = log;
      const entry = { ...fields, component: 'kafkajs', namespace };
      const text = `kafkajs: ${message}`;
      if (level === logLevel.ERROR) sink.error(entry, text);
      else if (level === logLevel.WARN) sink.warn(entry, text);
      else if (level === logLevel.INFO) sink.info(entry, text);
    };
}
