import type { EventEnvelope } from '@bpc/events';
import type { LogBatch, LogRecord } from './event-log.port';
import type { StoredPayloads } from './file/record-framing';

/** A record read back from storage: its event is parsed from the stored bytes on first use (a consumer that hands the bytes on never parses them). */
export class StoredLogRecord implements LogRecord {
  #event: EventEnvelope | undefined;

  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly offset: string,
    readonly payload: Buffer,
  ) {}

  get event(): EventEnvelope {
    return (this.#event ??= JSON.parse(this.payload.toString('utf8')) as EventEnvelope);
  }

  /** The same record under another topic name (a namespace's view of it). */
  inTopic(topic: string): StoredLogRecord {
    return new StoredLogRecord(topic, this.partition, this.offset, this.payload);
  }
}

/** Stored payloads read back from a partition as a batch of records (each parsed on first use). */
export function storedLogBatch(topic: string, partition: number, payloads: StoredPayloads): LogBatch {
  const { buffer, firstOffset, count, starts, ends } = payloads;
  const records: StoredLogRecord[] = [];
  for (let i = 0; i < count; i++) records.push(new StoredLogRecord(topic, partition, String(firstOffset + i), buffer.subarray(starts[i], ends[i])));
  return { topic, partition, records };
}
