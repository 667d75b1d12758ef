import { randomUUID } from 'node:crypto';
import { decodeFrames, frameRecords, partitionForKey, payloadsByPartition } from '@bpc/event-log';
import { BotRequestEventIds, encodedEvents, encodeRecordedBotRequests, RecordedBotRequests } from '@bpc/events';
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

  it('frames byte for byte as the events’ JSON (encodeRecordedBotRequests) framed per partition by payloadsByPartition and frameRecords, each part in memory of its own', () => {
    const websites = ['demo', 'shop', 'ünï', 'blog'];
    const batch = (from: number, count: number) => {
      const requests = new RecordedBotRequests(PREFIX);
      for (let n = from; n < from + count; n++) requests.add({ ...recordedBotRequest(n), websiteId: websites[Math.floor(n / 3) % websites.length], requestId: n % 5 ? randomUUID() : `r${n}` }, n);
      return requests.columns();
    };
    const batches = [batch(0, 40), batch(40, 1), batch(41, 300)];
    const nextOffsets = [3, 2 ** 32 + 1, 0];
    const expected = [...payloadsByPartition(batches.flatMap((columns) => encodedEvents(encodeRecordedBotRequests(columns))), nextOffsets.length)].map(([partition, payloads]) => ({ partition, records: frameRecords(payloads, nextOffsets[partition]) }));
    const parts = frameRecordedBotRequests(batches, nextOffsets);
    expect(parts.map((p) => p.partition)).toEqual(expected.map((p) => p.partition));
    parts.forEach(({ records }, i) => {
      expect(records.firstOffset).toBe(expected[i].records.firstOffset);
      expect(records.bytes.equals(expected[i].records.bytes)).toBe(true);
      expect([...records.ends]).toEqual([...expected[i].records.ends]);
    });
    expect(new Set(parts.map(({ records }) => records.bytes.buffer)).size).toBe(parts.length);
    expect(frameRecordedBotRequests([], nextOffsets)).toEqual([]);
  });
});
