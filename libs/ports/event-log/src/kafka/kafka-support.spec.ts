import { CompressionTypes, logLevel } from 'kafkajs';
import { compressionFor } from './kafka-messages';
import { describeError, isMessageTooLarge, isTopicNotReady } from './kafka-errors';
import { kafkaLogCreator } from './kafka-log-creator';

describe('kafkaLogCreator', () => {
  it('maps kafkajs levels to the LogSink, keeps the fields and drops DEBUG', () => {
    const calls: [string, object, string][] = [];
    const sink = {
      info: (f: object, m: string) => void calls.push(['info', f, m]),
      warn: (f: object, m: string) => void calls.push(['warn', f, m]),
      error: (f: object, m: string) => void calls.push(['error', f, m]),
    };
    const log = kafkaLogCreator(sink)(logLevel.INFO);
    const entry = (level: logLevel, message: string) => ({ namespace: 'Consumer', level, label: '', log: { timestamp: 't', message, groupId: 'g' } });
    log(entry(logLevel.ERROR, 'crashed'));
    log(entry(logLevel.WARN, 'slow'));
    log(entry(logLevel.INFO, 'joined'));
    log(entry(logLevel.DEBUG, 'noise'));
    expect(calls).toEqual([
      ['error', { groupId: 'g', component: 'kafkajs', namespace: 'Consumer' }, 'kafkajs: crashed'],
      ['warn', { groupId: 'g', component: 'kafkajs', namespace: 'Consumer' }, 'kafkajs: slow'],
      ['info', { groupId: 'g', component: 'kafkajs', namespace: 'Consumer' }, 'kafkajs: joined'],
    ]);
  });
});

describe('kafkaLogCreator while Kafka cannot be reached', () => {
  it('passes kafkajs connection failures at most once a minute, saying how many it held back', () => {
    let nowMs = 0;
    const lines: [object, string][] = [];
    const sink = { info: () => undefined, warn: () => undefined, error: (f: object, m: string) => void lines.push([f, m]) };
    const log = kafkaLogCreator(sink, () => nowMs)(logLevel.INFO);
    const entry = (message: string) => ({ namespace: 'Connection', level: logLevel.ERROR, label: '', log: { timestamp: 't', message } });
    for (let attempt = 0; attempt < 10; attempt++) {
      log(entry('Connection error: connect ECONNREFUSED 127.0.0.1:9092'));
      log(entry('Failed to connect to seed broker, trying another broker from the list: Connection error'));
      nowMs += 1_000;
    }
    log(entry('Crash: KafkaJSNumberOfRetriesExceeded'));
    nowMs = 60_000;
    log(entry('Connection error: connect ECONNREFUSED 127.0.0.1:9092'));
    expect(lines.map(([fields, message]) => [message, (fields as { heldBack?: number }).heldBack])).toEqual([
      ['kafkajs: Connection error: connect ECONNREFUSED 127.0.0.1:9092', undefined],
      ['kafkajs: Crash: KafkaJSNumberOfRetriesExceeded', undefined],
      ['kafkajs: Connection error: connect ECONNREFUSED 127.0.0.1:9092', 19],
    ]);
  });
});

describe('message size', () => {
  it('recognises the brokers refusing a message or batch for its size, also behind kafkajs wrappers', () => {
    expect(isMessageTooLarge({ type: 'MESSAGE_TOO_LARGE' })).toBe(true);
    expect(isMessageTooLarge({ name: 'KafkaJSNonRetriableError', cause: { type: 'RECORD_LIST_TOO_LARGE' } })).toBe(true);
    expect(isMessageTooLarge({ type: 'LEADER_NOT_AVAILABLE' })).toBe(false);
    expect(isMessageTooLarge(undefined)).toBe(false);
  });

  it('compresses appends holding an event of 64 KiB or more', () => {
    expect(compressionFor(64 * 1024 - 1)).toBe(CompressionTypes.None);
    expect(compressionFor(64 * 1024)).toBe(CompressionTypes.GZIP);
  });
});

describe('isTopicNotReady', () => {
  it('recognises a topic still being auto-created, also behind kafkajs retry wrappers', () => {
    expect(isTopicNotReady({ type: 'LEADER_NOT_AVAILABLE' })).toBe(true);
    expect(isTopicNotReady({ name: 'KafkaJSNumberOfRetriesExceeded', cause: { type: 'UNKNOWN_TOPIC_OR_PARTITION' } })).toBe(true);
    expect(isTopicNotReady({ name: 'KafkaJSConnectionError' })).toBe(false);
    expect(isTopicNotReady(undefined)).toBe(false);
  });

  it('describes an error with its cause', () => {
    const error = Object.assign(new Error('retries exceeded'), { cause: new Error('leader not available') });
    expect(describeError(error)).toBe('retries exceeded (leader not available)');
    expect(describeError('plain')).toBe('plain');
  });
});
