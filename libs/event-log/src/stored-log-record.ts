import type { EventEnvelope } from '@bpc/events';
import type { LogBatch, LogRecord, StoredPayloads } from './event-log.port';

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

/** A batch read back as stored payloads (`LogBatch.payloads`); its records are made on first use, for consumers that want them. */
export class StoredLogBatch implements LogBatch {
  #records: StoredLogRecord[] | undefined;

  constructor(
    readonly topic: string,
    readonly partition: number,
    readonly payloads: StoredPayloads,
  ) {}

  get records(): readonly LogRecord[] {
    if (!this.#records) {
      const { buffer, firstOffset, count, starts, ends } = this.payloads;
      const records: StoredLogRecord[] = [];
      for (let i = 0; i < count; i++) records.push(new StoredLogRecord(this.topic, this.partition, String(firstOffset + i), buffer.subarray(starts[i], ends[i])));
      this.#records = records;
    }
    return this.#records;
  }

  /** The offset after the batch's last record. */
  get nextOffset(): number {
    return this.payloads.firstOffset + this.payloads.count;
  }
}
