import { CompressionTypes, Message } from 'kafkajs';
import type { RecordRun } from 'kafkajs/src/protocol/recordBatch/record/v0/encodeRecords';
import { BoundedMemo } from '@bpc/domain';
import { EncodedEvent, EncodedEventBatch, encodedEvents, EncodedEvents, isEncodedEventList } from '@bpc/events';

/** Appends holding an event at least this large are sent GZIP-compressed (a URL list shrinks about tenfold). */
const COMPRESS_FROM_BYTES = 64 * 1024;

/**
 * UTF-8 bytes of the keys (website ids) and header values (event types,
 * versions) that repeat on every message: the partitioner and the record
 * encoder copy them, instead of encoding each from its string once per message.
 */
const repeatedBytes = new BoundedMemo((text) => Buffer.from(text, 'utf8'), 10_000, 256);

/** Large events (a recache of thousands of URLs) go GZIP-compressed, to fit under the brokers' message size limit; small ones as they are. */
export function compressionFor(largestEventBytes: number): CompressionTypes {
  return largestEventBytes >= COMPRESS_FROM_BYTES ? CompressionTypes.GZIP : CompressionTypes.None;
}

/** What kafkajs is handed for `events`, and how: the size of the largest event decides the compression. */
export interface KafkaMessages {
  readonly messages: Message[];
  readonly largest: number;
  readonly compression: CompressionTypes;
}

export function kafkaMessagesOf(events: EncodedEvents): KafkaMessages {
  if (isEncodedEventList(events)) {
    const largest = events.reduce((max, e) => Math.max(max, e.json.length), 0);
    return { messages: events.map(toMessage), largest, compression: compressionFor(largest) };
  }
  return batchMessagesOf(events);
}

function batchMessagesOf(batch: EncodedEventBatch): KafkaMessages {
  let largest = 0;
  for (let i = 0, start = 0; i < batch.ends.length; start = batch.ends[i], i++) largest = Math.max(largest, batch.ends[i] - start);
  const compression = compressionFor(largest);
  // Compressed record batches are encoded per record by kafkajs: no runs there.
  const messages = compression === CompressionTypes.None ? [runOf(batch)] : encodedEvents(batch).map(toMessage);
  return { messages, largest, compression };
}

function toMessage(event: EncodedEvent): Message {
  return { key: repeatedBytes.get(event.key), value: event.json, headers: { type: repeatedBytes.get(event.type), version: repeatedBytes.get(String(event.version)), id: event.id } };
}

/** The batch as one run of records (patches/kafkajs+2.2.4.patch), with the headers `toMessage` gives each event: no object per event. */
function runOf(batch: EncodedEventBatch): Message {
  const { bytes, ends, idInJson, keys } = batch;
  // Consecutive events mostly share their website: no lookup then.
  let lastKey: string | undefined;
  let lastBytes = Buffer.alloc(0);
  const keyBytes = (key: string): Buffer => (key === lastKey ? lastBytes : ((lastKey = key), (lastBytes = repeatedBytes.get(key))));
  const run: RecordRun = {
    values: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    starts: Uint32Array.from(ends, (_, i) => (i === 0 ? 0 : ends[i - 1])),
    ends,
    keys: keys.map(keyBytes),
    recordHeader: 'id',
    // Ids copied from the events' JSON when the encoder says where they are: no string per event.
    ...(idInJson ? { recordHeaderInValue: idInJson } : { recordHeaderValues: batch.ids }),
    scratch: batch.scratch,
  };
  return { key: null, value: null, headers: { type: repeatedBytes.get(batch.type), version: repeatedBytes.get(String(batch.version)) }, records: run } as Message;
}
