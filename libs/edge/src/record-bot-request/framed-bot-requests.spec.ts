import { decodeFrames, partitionForKey } from '@bpc/event-log';
import { BotRequestEventIds, RecordedBotRequests } from '@bpc/events';
import { recordedBotRequest } from '@bpc/testing';
import { frameRecordedBotRequests } from './framed-bot-requests';

const PREFIX = 'fedcba9876543210fedcba9876543210';

describe('frameRecordedBotRequests', () => {
  it('frames each website’s events into the partition of its key, in order, numbered from where each partition goes on', () => {
    const websites = ['demo', 'shop', 'blog', 'news', 'docs'];
    const first = new RecordedBotRequests(PREFIX);
    const second = new RecordedBotRequests(PREFIX);
    const requests = Array.from({ length: 60 }, (_, n) => ({ ...recordedBotRequest(n), websiteId: websites[n % websites.length], requestId: `r${n}` }));
    // Two batches, framed as one run of events.
    requests.forEach((r, n) => (n < 25 ? first : second).add(r, n));
    const nextOffsets = [7, 0, 2 ** 32, 41];
    const parts = frameRecordedBotRequests([first.columns(), second.columns()], nextOffsets);
    const ids = new BotRequestEventIds(PREFIX);
    const seen: string[] = [];
    for (const { partition, records } of parts) {
      const decoded = decodeFrames(records.bytes, 0, nextOffsets[partition]);
      expect(decoded.stop).toEqual({ kind: 'end' });
      expect(records.firstOffset).toBe(nextOffsets[partition]);
      expect(decoded.frames.map((f) => f.position + f.payload.length + 16)).toEqual([...records.ends]);
      for (const frame of decoded.frames) {
        const event = JSON.parse(frame.payload.toString('utf8')) as { id: string; key: string; payload: { requestId: string } };
        expect(partitionForKey(event.key, nextOffsets.length)).toBe(partition);
        const n = Number(event.payload.requestId.slice(1));
        expect(event.id).toBe(ids.of(n));
        seen.push(event.payload.requestId);
      }
    }
    expect(seen.sort()).toEqual(requests.map((r) => r.requestId).sort());
    // Within a partition, the order in which they were recorded.
    for (const { records } of parts) {
      const order = decodeFrames(records.bytes, 0, records.firstOffset).frames.map((f) => Number((JSON.parse(f.payload.toString('utf8')) as { payload: { requestId: string } }).payload.requestId.slice(1)));
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
  });

  it('writes each batch’s JSON into the scratch memory it is lent, and frames copies: reusing it for the next call leaves the frames as they were', () => {
    const batch = (from: number) => {
      const requests = new RecordedBotRequests(PREFIX);
      for (let n = from; n < from + 30; n++) requests.add({ ...recordedBotRequest(n), websiteId: n % 2 ? 'demo' : 'shop', requestId: `r${n}` }, n);
      return requests.columns();
    };
    const nextOffsets = [0, 0, 0];
    const scratch = [Buffer.alloc(64 * 1024), Buffer.alloc(64 * 1024)];
    const lent = frameRecordedBotRequests([batch(0), batch(30)], nextOffsets, (i) => scratch[i]);
    expect(scratch.every((memory) => memory.subarray(0, 2).toString() === '{"')).toBe(true);
    const copies = lent.map(({ partition, records }) => ({ partition, bytes: Buffer.from(records.bytes) }));
    expect(copies).toEqual(frameRecordedBotRequests([batch(0), batch(30)], nextOffsets).map(({ partition, records }) => ({ partition, bytes: records.bytes })));
    frameRecordedBotRequests([batch(100), batch(130)], nextOffsets, (i) => scratch[i]);
    expect(lent.map(({ partition, records }) => ({ partition, bytes: Buffer.from(records.bytes) }))).toEqual(copies);
  });
});
