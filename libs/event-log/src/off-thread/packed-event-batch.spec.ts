import { encodedEvents, EncodedEventBatch } from '@bpc/events';
import { packEventBatch, transferables, unpackEventBatch } from './packed-event-batch';

const json = ['{"a":1}', '{"b":"ü"}', '{}', '{"c":[1,2]}'].map((s) => Buffer.from(s, 'utf8'));
/** Four events in the middle of a larger buffer, as a batch writer's view leaves them. */
function batch(): EncodedEventBatch {
  const all = Buffer.concat([Buffer.from('xx'), ...json, Buffer.from('tail')]);
  const ends = new Uint32Array(json.reduce<number[]>((acc, b) => [...acc, (acc.at(-1) ?? 0) + b.length], []));
  return { type: 'T', version: 2, bytes: all.subarray(2, 2 + ends[3]), ends, ids: ['id-1', '', 'ïd-3', 'id-4-longer'], keys: ['k1', 'k2', 'k1', ''] };
}

describe('packEventBatch / unpackEventBatch', () => {
  it('gives back the same events, keys deduplicated, ids of any length, only the batch bytes kept', () => {
    const packed = packEventBatch(batch());
    expect(packed.keys).toEqual(['k1', 'k2', '']);
    expect(packed.bytes.buffer.byteLength).toBe(packed.bytes.byteLength);
    const roomy = batch();
    const ends = new Uint32Array(16);
    ends.set(roomy.ends);
    expect(packEventBatch({ ...roomy, ends: ends.subarray(0, 4) }).ends.buffer.byteLength).toBe(16);
    const events = encodedEvents(unpackEventBatch(structuredClone(packed, { transfer: transferables(packed) })));
    expect(events.map((e) => [e.type, e.version, e.id, e.key, e.json.toString('utf8')])).toEqual(
      encodedEvents(batch()).map((e) => [e.type, e.version, e.id, e.key, e.json.toString('utf8')]),
    );
  });

  it('owns its memory: transferring it leaves the batch packed intact, to be appended again', () => {
    // Views spanning their whole memory, as a batch filled to the last byte leaves them.
    const whole = batch();
    const exact = { ...whole, bytes: new Uint8Array(whole.bytes) };
    const packed = packEventBatch(exact);
    structuredClone(packed, { transfer: transferables(packed) });
    expect(packed.bytes.byteLength).toBe(0);
    expect(encodedEvents(exact).map((e) => e.json.toString('utf8'))).toEqual(json.map((b) => b.toString('utf8')));
    expect(exact.ends.byteLength).toBe(16);
  });

  it('packs an empty batch', () => {
    const empty: EncodedEventBatch = { type: 'T', version: 1, bytes: new Uint8Array(0), ends: new Uint32Array(0), ids: [], keys: [] };
    expect(encodedEvents(unpackEventBatch(packEventBatch(empty)))).toEqual([]);
  });
});
