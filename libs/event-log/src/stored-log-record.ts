import type { EventEnvelope } from '@bpc/events';
import type { LogRecord } from './event-log.port';

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
