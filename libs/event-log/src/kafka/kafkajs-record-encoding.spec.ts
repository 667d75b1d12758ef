import { randomBytes } from 'node:crypto';
import groupMessagesPerPartition from 'kafkajs/src/producer/groupMessagesPerPartition';
import produceV2 from 'kafkajs/src/protocol/requests/produce/v2/request';
import produceV3 from 'kafkajs/src/protocol/requests/produce/v3/request';
import createRequest from 'kafkajs/src/protocol/request';
import Decoder from 'kafkajs/src/protocol/decoder';
import decodeRecordBatch from 'kafkajs/src/protocol/recordBatch/v0/decoder';
import crc32C from 'kafkajs/src/protocol/recordBatch/crc32C/crc32C';
import producerCrc32C from 'kafkajs/src/protocol/recordBatch/crc32C';
import { crc32c as hardwareCrc32C } from '@node-rs/crc32';

type Message = Parameters<typeof produceV3>[0]['topicData'][number]['partitions'][number]['messages'][number];

/**
 * The patched producer path (patches/kafkajs+2.2.4.patch): uncompressed
 * records encoded in one pass, large pieces shared by reference between
 * the request's encoders (not copied into each), and a CRC-32C from the CPU's instruction
 * (@node-rs/crc32) with a slicing-by-8 fallback. Checked against
 * kafkajs' own decoder and a bit-by-bit CRC, so a wrong byte cannot hide.
 */

const NONE = 0;

/** CRC-32C one bit at a time (reflected polynomial 0x82F63B78): slow and obviously right. */
function referenceCrc32C(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0x82f63b78 : crc >>> 1;
  }
  return ~crc >>> 0;
}

const messages: Message[] = Array.from({ length: 40 }, (_, i) => ({
  key: i % 5 === 0 ? null : i % 5 === 1 ? Buffer.from([0, 1, 255]) : `clé-${i}`,
  value: i % 7 === 0 ? null : i % 7 === 1 ? randomBytes(i * 13) : `välue ${'x'.repeat(i * 40)}`,
  headers: i % 3 === 0 ? undefined : { type: 'BotRequestRecorded', id: `id-${i}`, repeated: ['a', Buffer.from('b')], empty: '' },
  // Timestamps out of order, and none (the batch's own time, later than all of them).
  timestamp: i % 4 === 0 ? undefined : String(1_763_740_000_000 + i * 1000 - (i % 2) * 40_000),
}));

const GZIP = 1;

/** Record `i`'s id header: as many bytes for every record under 100. */
const idOf = (i: number): string => `id-${String(i).padStart(2, '0')}-ü`;
/** Where `withIdsInside` puts each record's id in its value. */
const ID_IN_VALUE = { offset: 2, length: Buffer.byteLength(idOf(0)) };

/**
 * The records `indexes` of values ending at `ends`, as a run: keys from
 * `keyOf`, id headers `idOf(index)`, as strings, or (`idInValue`, values
 * from `withIdsInside`) as where they lie in each value.
 */
function runRecords(values: Buffer, ends: readonly number[], indexes: readonly number[], keyOf: (i: number) => Buffer, idInValue = false): NonNullable<Message['records']> {
  return {
    values,
    starts: Uint32Array.from(indexes, (i) => (i === 0 ? 0 : ends[i - 1])),
    ends: Uint32Array.from(indexes, (i) => ends[i]),
    keys: indexes.map(keyOf),
    recordHeader: 'id',
    ...(idInValue ? { recordHeaderInValue: ID_IN_VALUE } : { recordHeaderValues: indexes.map(idOf) }),
  };
}

/** `texts` with each record's id inside its value, at `ID_IN_VALUE`. */
function withIdsInside(texts: readonly string[]): string[] {
  return texts.map((text, i) => `@@${idOf(i)}${text}`);
}

/** Where each of `texts` ends, back to back, in bytes. */
function endsOf(texts: readonly string[]): number[] {
  return texts.reduce<number[]>((all, t) => [...all, (all.at(-1) ?? 0) + Buffer.byteLength(t)], []);
}

function produce(batch: Message[], compression = NONE) {
  return produceV3({ acks: -1, timeout: 30_000, compression, topicData: [{ topic: 'bot-requests', partitions: [{ partition: 3, messages: batch }] }] }).encode();
}

async function encodeAndDecode(batch: Message[]) {
  const { buffer } = await produce(batch);
  const decoder = new Decoder(buffer);
  expect([decoder.readString(), decoder.readInt16(), decoder.readInt32(), decoder.readInt32(), decoder.readString(), decoder.readInt32(), decoder.readInt32()]).toEqual([null, -1, 30_000, 1, 'bot-requests', 1, 3]);
  const recordSetSize = decoder.readInt32();
  const start = decoder.offset;
  const { records } = await decodeRecordBatch(decoder);
  const batchLength = buffer.readInt32BE(start + 8);
  expect(12 + batchLength).toBe(recordSetSize);
  // The CRC covers everything after itself: attributes to the last record.
  const storedCrc = buffer.readUInt32BE(start + 17);
  expect(storedCrc).toBe(referenceCrc32C(buffer.subarray(start + 21, start + 12 + batchLength)));
  return records;
}

describe('kafkajs record encoding (patched)', () => {
  it('runs the patched encoder (postinstall applied patches/)', () => {
    expect(() => require.resolve('kafkajs/src/protocol/recordBatch/record/v0/encodeRecords')).not.toThrow();
  });

  it('encodes keys, values, headers, offsets and timestamps that kafkajs decodes back, with a correct batch CRC', async () => {
    const before = Date.now();
    const records = await encodeAndDecode(messages);
    expect(records).toHaveLength(messages.length);
    records.forEach((record, i) => {
      const sent = messages[i];
      expect(record.offset).toBe(String(i));
      expect(record.key).toEqual(sent.key == null ? null : Buffer.from(sent.key));
      expect(record.value).toEqual(sent.value === null ? null : Buffer.from(sent.value));
      if (sent.headers) expect(record.headers).toEqual({ type: Buffer.from('BotRequestRecorded'), id: Buffer.from(`id-${i}`), repeated: [Buffer.from('a'), Buffer.from('b')], empty: Buffer.from('') });
      else expect(record.headers).toEqual({});
      if (sent.timestamp !== undefined) expect(record.timestamp).toBe(sent.timestamp);
      else expect(Number(record.timestamp)).toBeGreaterThanOrEqual(before);
    });
  });

  it('encodes a single record and a batch of large records', async () => {
    expect(await encodeAndDecode(messages.slice(2, 3))).toHaveLength(1);
    const large = Array.from({ length: 300 }, (_, i) => ({ key: `k${i}`, value: 'é'.repeat(20_000 + i) }));
    const records = await encodeAndDecode(large);
    expect(records.map((r) => String(r.value))).toEqual(large.map((m) => m.value));
  });

  it('encodes a run (one message standing for many records) as exactly the records it stands for, between plain messages and other runs', async () => {
    // Values back to back, some empty, some beyond one byte per character, one larger than a varint byte holds.
    const texts = Array.from({ length: 9 }, (_, i) => (i === 2 ? '' : i === 5 ? 'x'.repeat(300) : `välue-${i}-${'é'.repeat(i)}`));
    const values = Buffer.from(texts.join(''));
    const ends = texts.reduce<number[]>((all, t) => [...all, (all.at(-1) ?? 0) + Buffer.byteLength(t)], []);
    const timestamp = '1763740000000';
    const headers = { type: 'BotRequestRecorded', version: Buffer.from('1') };
    const keyOf = (i: number) => Buffer.from(i % 2 ? 'site-b' : 'sité-ä');
    const one = (i: number): Message => ({ key: keyOf(i), value: texts[i], headers: { ...headers, id: idOf(i) }, timestamp });
    // A run over records 1, 2, 4, 5, 8 (not contiguous in the buffer), and one over 6 alone.
    const run = (indexes: number[]): Message => ({ key: null, value: null, headers, timestamp, records: runRecords(values, ends, indexes, keyOf) });
    const withRuns = [one(0), run([1, 2, 4, 5, 8]), one(3), run([6]), one(7)];
    const expanded = [0, 1, 2, 4, 5, 8, 3, 6, 7].map(one);
    expect((await produce(withRuns)).buffer.equals((await produce(expanded)).buffer)).toBe(true);
    // Ids copied from where they lie in each value: the same bytes as ids given as strings.
    const inside = withIdsInside(texts);
    const insideValues = Buffer.from(inside.join(''));
    const insideEnds = endsOf(inside);
    const oneInside = (i: number): Message => ({ ...one(i), value: inside[i] });
    const insideRun = (indexes: number[]): Message => ({ key: null, value: null, headers, timestamp, records: runRecords(insideValues, insideEnds, indexes, keyOf, true) });
    const insideExpanded = [0, 1, 2, 4, 5, 8, 3, 6, 7].map(oneInside);
    expect((await produce([oneInside(0), insideRun([1, 2, 4, 5, 8]), oneInside(3), insideRun([6]), oneInside(7)])).buffer.equals((await produce(insideExpanded)).buffer)).toBe(true);
    const records = await encodeAndDecode(withRuns);
    expect(records.map((r) => [r.offset, String(r.key), String(r.value), String(r.headers.id), String(r.headers.type), String(r.headers.version)])).toEqual(
      expanded.map((m, i) => [String(i), String(m.key), m.value, (m.headers as Record<string, string>).id, 'BotRequestRecorded', '1']),
    );
  });

  it('gives each partition the records of a run whose keys it takes, in their order, as the partitioner places them one by one', () => {
    const texts = Array.from({ length: 40 }, (_, i) => `v${i}`);
    const keys = ['a', 'b', 'c', 'd', 'e'].map((k) => Buffer.from(k));
    const keyOf = (i: number) => keys[(i * 7) % 5];
    const partitionMetadata = [0, 1, 2].map((partitionId) => ({ partitionId }));
    const partitioner = ({ message }: { message: Message }) => String(message.key).charCodeAt(0) % 3;
    // Ids as strings, and as where they lie in each value.
    for (const [valueTexts, idInValue] of [[texts, false], [withIdsInside(texts), true]] as const) {
      const values = Buffer.from(valueTexts.join(''));
      const expected: Record<string, string[][]> = {};
      valueTexts.forEach((text, i) => (expected[partitioner({ message: { key: keyOf(i), value: null } })] ??= []).push([String(keyOf(i)), text, idOf(i)]));
      const split = groupMessagesPerPartition({ topic: 't', partitionMetadata, partitioner, messages: [{ key: null, value: null, headers: { type: 'T' }, records: runRecords(values, endsOf(valueTexts), valueTexts.map((_, i) => i), keyOf, idInValue) }] });
      const idAt = (run: NonNullable<Message['records']>, j: number) => {
        const inValue = run.recordHeaderInValue;
        return inValue ? values.toString('utf8', run.starts[j] + inValue.offset, run.starts[j] + inValue.offset + inValue.length) : run.recordHeaderValues![j];
      };
      const placed = Object.fromEntries(Object.entries(split).map(([partition, messages]) => [partition, messages.flatMap((m) => [...m.records!.starts].map((start, j) => [String(m.records!.keys[j]), values.toString('utf8', start, m.records!.ends[j]), idAt(m.records!, j)]))]));
      expect(placed).toEqual(expected);
      expect(Object.keys(placed)).toHaveLength(3);
    }
  });

  it('encodes a lone run into the scratch memory it lends when it fits, the same bytes as into a buffer of its own', async () => {
    const texts = Array.from({ length: 50 }, (_, i) => `välue-${i}-${'x'.repeat(i * 3)}`);
    const values = Buffer.from(texts.join(''));
    const ends = texts.reduce<number[]>((all, t) => [...all, (all.at(-1) ?? 0) + Buffer.byteLength(t)], []);
    const timestamp = '1763740000000';
    const lent = (scratch?: Buffer): Message => ({ key: null, value: null, timestamp, headers: { type: 'T' }, records: { ...runRecords(values, ends, texts.map((_, i) => i), () => Buffer.from('k')), scratch } });
    const own = (await produce([lent()])).buffer;
    const scratch = Buffer.alloc(64 * 1024, 0xaa);
    expect((await produce([lent(scratch)])).buffer.equals(own)).toBe(true);
    // The partition's entry (partition 3, record set size, record batch) is what the scratch holds.
    const entryBytes = 8 + scratch.readInt32BE(4);
    expect(scratch.readInt32BE(0)).toBe(3);
    expect(own.includes(scratch.subarray(0, entryBytes))).toBe(true);
    expect(scratch[entryBytes]).toBe(0xaa);
    // Too small a scratch, or a run beside other messages, is left untouched.
    const small = Buffer.alloc(100, 0xaa);
    expect((await produce([lent(small)])).buffer.equals(own)).toBe(true);
    const beside = Buffer.alloc(64 * 1024, 0xaa);
    await produce([lent(beside), messages[1]]);
    expect([small, beside].every((b) => b.every((byte) => byte === 0xaa))).toBe(true);
  });

  it('keeps the scratch memory of a run that goes whole to one partition, and gives none to the parts of a run split across partitions', () => {
    const scratch = Buffer.alloc(1024);
    const run = (keys: string[]): Message => ({ key: null, value: null, records: { ...runRecords(Buffer.from('abcd'), [1, 2, 3, 4], [0, 1, 2, 3], (i) => Buffer.from(keys[i])), scratch } });
    const partitionMetadata = [0, 1].map((partitionId) => ({ partitionId }));
    const partitioner = ({ message }: { message: Message }) => (String(message.key) === 'a' ? 0 : 1);
    const whole = groupMessagesPerPartition({ topic: 't', partitionMetadata, partitioner, messages: [run(['a', 'a', 'a', 'a'])] });
    expect(whole['0'][0].records!.scratch).toBe(scratch);
    const split = groupMessagesPerPartition({ topic: 't', partitionMetadata, partitioner, messages: [run(['a', 'b', 'a', 'b'])] });
    expect(Object.values(split).map((parts) => parts[0].records!.scratch)).toEqual([undefined, undefined]);
  });

  it('refuses runs where records are not encoded one pass: compressed batches, and message sets before Kafka 0.11', async () => {
    const run: Message = { key: null, value: null, records: runRecords(Buffer.from('ab'), [1, 2], [0, 1], () => Buffer.from('k')) };
    await expect(produce([run], GZIP)).rejects.toThrow('record runs are sent uncompressed');
    await expect(produceV2({ acks: -1, timeout: 30_000, compression: NONE, topicData: [{ topic: 't', partitions: [{ partition: 0, messages: [run] }] }] }).encode()).rejects.toThrow('record runs need produce v3 or later');
  });

  it('hands a large request to the connection as pieces: the records are not copied into each enclosing encoder', async () => {
    const large = Array.from({ length: 200 }, (_, i) => ({ key: `k${i}`, value: 'é'.repeat(1_000 + i) }));
    const produce = produceV3({ acks: -1, timeout: 30_000, compression: NONE, topicData: [{ topic: 'bot-requests', partitions: [{ partition: 3, messages: large }] }] });
    const body = await produce.encode();
    const request = await createRequest({ correlationId: 7, clientId: 'spec', request: { apiKey: produce.apiKey, apiVersion: produce.apiVersion, encode: async () => body } });
    const pieces = request.buffers;
    const whole = Buffer.concat(pieces);
    expect(request.size()).toBe(whole.length);
    // The record set is one of the pieces as the partition encoder wrote it, not a copy.
    const recordSet = body.buffers.find((b) => b.length >= 64 * 1024)!;
    expect(pieces.some((piece) => piece.buffer === recordSet.buffer && piece.byteOffset === recordSet.byteOffset)).toBe(true);
    // Size prefix, then api key 0 (Produce), version 3, correlation id, client id, and the body byte for byte.
    const decoder = new Decoder(whole);
    expect([decoder.readInt32(), decoder.readInt16(), decoder.readInt16(), decoder.readInt32(), decoder.readString()]).toEqual([whole.length - 4, 0, 3, 7, 'spec']);
    expect(whole.subarray(decoder.offset).equals(body.buffer)).toBe(true);
  });

  it('computes CRC-32C as the bit-by-bit definition does, at every length around the 8-byte stride', () => {
    expect(crc32C(Buffer.from('123456789'))).toBe(0xe3069283);
    for (let length = 0; length < 80; length++) {
      const bytes = randomBytes(length);
      expect(crc32C(bytes)).toBe(referenceCrc32C(bytes));
    }
  });

  it('computes the producer’s CRC-32C as the definition does, with @node-rs/crc32 resolvable from kafkajs', () => {
    // The patched module loads @node-rs/crc32 from kafkajs' own directory; the table loop is only a fallback.
    expect(() => require.resolve('@node-rs/crc32', { paths: [require.resolve('kafkajs/src/protocol/recordBatch/crc32C')] })).not.toThrow();
    const sizes = [0, 1, 7, 8, 9, 63, 64, 65, 1000, 100_003];
    for (const size of sizes) {
      const bytes = randomBytes(size);
      const reference = referenceCrc32C(bytes);
      expect(hardwareCrc32C(bytes)).toBe(reference);
      expect(producerCrc32C(bytes)).toBe(reference);
      // An odd offset into a larger buffer, as the producer hands it a subarray.
      expect(producerCrc32C(Buffer.concat([Buffer.from([1]), bytes]).subarray(1))).toBe(reference);
    }
  });
});
