import { randomBytes } from 'node:crypto';
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

async function encodeAndDecode(batch: Message[]) {
  const { buffer } = await produceV3({ acks: -1, timeout: 30_000, compression: NONE, topicData: [{ topic: 'bot-requests', partitions: [{ partition: 3, messages: batch }] }] }).encode();
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
