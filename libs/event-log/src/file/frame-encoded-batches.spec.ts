import { encodedEvents, EncodedEventBatch } from '@bpc/events';
import { EventTooLargeError } from '../event-too-large';
import { frameEncodedBatches } from './frame-encoded-batches';
import { payloadsByPartition } from './payloads-by-partition';
import { frameRecords, MAX_PAYLOAD_BYTES } from './record-framing';

/** A batch of `texts` as events keyed by `keys`, their bytes at an offset into a larger buffer (as a reused scratch gives them). */
function batch(texts: readonly string[], keys: readonly string[]): EncodedEventBatch {
  const bytes = Buffer.concat([Buffer.from('padding'), Buffer.from(texts.join(''))]).subarray(7);
  const ends = Uint32Array.from(texts, (_, i) => Buffer.byteLength(texts.slice(0, i + 1).join('')));
  return { type: 'T', version: 1, bytes, ends, ids: texts.map((_, i) => `e${i}`), keys };
}

describe('frameEncodedBatches', () => {
  it('frames the batches’ events per partition of their key, in event order, byte for byte as payloadsByPartition and frameRecords do', () => {
    const keys = ['demo', 'shop', 'blog', 'news', 'docs', 'ünï'];
    const first = batch(Array.from({ length: 30 }, (_, i) => `{"n":${i},"t":"${'é'.repeat(i)}"}`), Array.from({ length: 30 }, (_, i) => keys[Math.floor(i / 4) % keys.length]));
    const second = batch(['', '{}', 'x'.repeat(300)], ['shop', 'demo', 'demo']);
    const nextOffsets = [7, 0, 2 ** 32 + 3, 41, 5];
    const parts = frameEncodedBatches([first, second], nextOffsets);
    const expected = [...payloadsByPartition([...encodedEvents(first), ...encodedEvents(second)], nextOffsets.length)].map(([partition, list]) => ({ partition, records: frameRecords(list, nextOffsets[partition]) }));
    expect(parts.map((p) => p.partition)).toEqual(expected.map((p) => p.partition));
    parts.forEach((part, i) => {
      expect(part.records.firstOffset).toBe(expected[i].records.firstOffset);
      expect(part.records.bytes.equals(expected[i].records.bytes)).toBe(true);
      expect([...part.records.ends]).toEqual([...expected[i].records.ends]);
      // Memory of its own, whole (it is transferred to another thread).
      expect(part.records.bytes.byteOffset).toBe(0);
      expect(part.records.bytes.buffer.byteLength).toBe(part.records.bytes.length);
    });
    expect(parts.length).toBeGreaterThan(2);
  });

  it('frames nothing for no events, and refuses an event no frame can hold', () => {
    expect(frameEncodedBatches([], [0, 0])).toEqual([]);
    expect(frameEncodedBatches([batch([], [])], [0, 0])).toEqual([]);
    const huge = { ...batch(['{}'], ['demo']), ends: Uint32Array.of(MAX_PAYLOAD_BYTES + 1) };
    expect(() => frameEncodedBatches([batch(['{}'], ['demo']), huge], [0, 0])).toThrow(EventTooLargeError);
  });
});
