import { crc32 } from 'node:zlib';
import { decodeFrames, decodeFrameSpans, encodeFrame, FRAME_HEADER_BYTES, frameRecords, frameRecordsInSlices, MAX_PAYLOAD_BYTES } from './record-framing';

const payload = (text: string) => Buffer.from(text, 'utf8');

function frames(first: number, texts: string[]): Buffer {
  return Buffer.concat(texts.map((t, i) => encodeFrame(first + i, payload(t))));
}

describe('record framing', () => {
  it('frames records ahead into one buffer, byte for byte as frame by frame, with the end of each', () => {
    const texts = ['{"a":1}', '', '{"b":"é"}'];
    const framed = frameRecords(texts.map(payload), 2 ** 32 + 5);
    expect(framed.bytes).toEqual(frames(2 ** 32 + 5, texts));
    expect([...framed.ends]).toEqual([1, 2, 3].map((n) => frames(0, texts.slice(0, n)).length));
    expect(framed.firstOffset).toBe(2 ** 32 + 5);
  });

  it('frames in slices byte for byte as at once, letting the event loop turn between two slices', async () => {
    const texts = Array.from({ length: 25 }, (_, i) => `{"n":${i}}`);
    const order: string[] = [];
    const slicing = frameRecordsInSlices(texts.map(payload), 2 ** 32 + 5, 10).then((framed) => (order.push('framed'), framed));
    setImmediate(() => order.push('a turn of the event loop'));
    const framed = await slicing;
    expect(order).toEqual(['a turn of the event loop', 'framed']);
    expect(framed).toEqual(frameRecords(texts.map(payload), 2 ** 32 + 5));
    expect((await frameRecordsInSlices([], 0, 10)).bytes.length).toBe(0);
  });

  it('round-trips consecutive frames', () => {
    const buffer = frames(7, ['{"a":1}', '{"b":"é"}', '']);
    const result = decodeFrames(buffer, 0, 7);
    expect(result.stop).toEqual({ kind: 'end' });
    expect(result.frames.map((f) => [f.offset, f.payload.toString()])).toEqual([
      [7, '{"a":1}'],
      [8, '{"b":"é"}'],
      [9, ''],
    ]);
    expect(result.nextPosition).toBe(buffer.length);
    expect(result.nextOffset).toBe(10);
  });

  it('decodes frames as payload spans, past the room it starts with, up to a limit, from a position inside the buffer', () => {
    const texts = Array.from({ length: 600 }, (_, i) => `{"n":${i}}`);
    const buffer = Buffer.concat([Buffer.from('junk'), frames(40, texts)]);
    const spans = decodeFrameSpans(buffer, 4, 40, 550);
    expect(spans.stop).toEqual({ kind: 'limit' });
    expect(spans.count).toBe(550);
    expect(spans.firstOffset).toBe(40);
    expect(spans.nextOffset).toBe(590);
    expect(Array.from({ length: spans.count }, (_, i) => buffer.toString('utf8', spans.starts[i], spans.ends[i]))).toEqual(texts.slice(0, 550));
    const rest = decodeFrameSpans(buffer, spans.nextPosition, spans.nextOffset);
    expect(rest.stop).toEqual({ kind: 'end' });
    expect(rest.count).toBe(50);
    expect(buffer.toString('utf8', rest.starts[49], rest.ends[49])).toBe('{"n":599}');
    // The frames as objects are the same records.
    const decoded = decodeFrames(buffer, 4, 40);
    expect(decoded.frames.map((f) => [f.offset, f.payload.toString(), f.position])).toEqual(texts.map((t, i) => [40 + i, t, spans.starts[0] - FRAME_HEADER_BYTES + frames(0, texts.slice(0, i)).length]));
  });

  it('lays a frame out as on disk: length, CRC32 of the offset bytes then the payload, offset, payload', () => {
    const frame = encodeFrame(2 ** 33 + 3, payload('{"é":1}'));
    const header = Buffer.from([0, 0, 0, 2, 0, 0, 0, 3]);
    expect(frame.readUInt32BE(0)).toBe(payload('{"é":1}').length);
    expect(frame.readUInt32BE(4)).toBe(crc32(payload('{"é":1}'), crc32(header)));
    expect(frame.subarray(8, 16)).toEqual(header);
    expect(frame.subarray(FRAME_HEADER_BYTES).toString()).toBe('{"é":1}');
  });

  it('skips the CRC check only when told the bytes never left memory', () => {
    const buffer = frames(0, ['a', 'b']);
    buffer[buffer.length - 1] ^= 1;
    expect(decodeFrames(buffer, 0, 0).stop).toEqual({ kind: 'corrupt', reason: 'CRC mismatch at offset 1' });
    expect(decodeFrames(buffer, 0, 0, Number.POSITIVE_INFINITY, false).frames).toHaveLength(2);
  });

  it('keeps offsets above 2^32 exact', () => {
    const big = 2 ** 40 + 5;
    const result = decodeFrames(encodeFrame(big, payload('x')), 0, big);
    expect(result.frames[0].offset).toBe(big);
  });

  it('stops at maxFrames with the position of the next frame', () => {
    const buffer = frames(0, ['a', 'b', 'c']);
    const result = decodeFrames(buffer, 0, 0, 2);
    expect(result.stop).toEqual({ kind: 'limit' });
    const rest = decodeFrames(buffer, result.nextPosition, result.nextOffset);
    expect(rest.frames.map((f) => f.payload.toString())).toEqual(['c']);
  });

  it('reports a partial header or body at the end as incomplete, keeping the good frames', () => {
    const good = frames(0, ['one', 'two']);
    const next = encodeFrame(2, payload('three'));
    for (const cut of [1, FRAME_HEADER_BYTES - 1, FRAME_HEADER_BYTES + 2]) {
      const result = decodeFrames(Buffer.concat([good, next.subarray(0, cut)]), 0, 0);
      expect(result.frames).toHaveLength(2);
      expect(result.nextPosition).toBe(good.length);
      expect(result.stop.kind).toBe('incomplete');
    }
  });

  it('detects a flipped payload bit through the CRC', () => {
    const buffer = frames(0, ['first', 'second']);
    buffer[buffer.length - 1] ^= 0x01;
    const result = decodeFrames(buffer, 0, 0);
    expect(result.frames).toHaveLength(1);
    expect(result.stop).toEqual({ kind: 'corrupt', reason: 'CRC mismatch at offset 1' });
  });

  it('detects a frame carrying an unexpected offset', () => {
    const result = decodeFrames(frames(5, ['x']), 0, 4);
    expect(result.stop.kind).toBe('corrupt');
    expect(result.frames).toHaveLength(0);
  });

  it('treats an absurd length as corruption, not as a frame to wait for', () => {
    const buffer = Buffer.alloc(FRAME_HEADER_BYTES + 4, 0xff);
    expect(decodeFrames(buffer, 0, 0).stop).toEqual({ kind: 'corrupt', reason: `frame length ${0xffffffff} exceeds ${MAX_PAYLOAD_BYTES}` });
  });

  it('treats zeroed bytes (preallocated or lost page) as corruption', () => {
    expect(decodeFrames(Buffer.alloc(64), 0, 0).stop.kind).toBe('corrupt');
  });
});
