import { randomUUID } from 'node:crypto';
import { hostileBotRequestPayload } from '@bpc/testing';
import { encodedEvents } from '../encoded-event';
import { RecordedBotRequest } from './bot-request-json';
import { botRequestRecorded } from './bot-request-recorded.event';
import { BotRequestEventIds } from './bot-request-event-ids';
import { columnsFrom, encodeRecordedBotRequests, recordedBotRequestAt, RecordedBotRequests, requestCount, requestIdsOf } from './recorded-bot-requests';

const PREFIX = '0123456789abcdef0123456789abcdef';
/** The i-th hostile request as the edge records it (its time in milliseconds; ids made unique). */
function request(i: number): RecordedBotRequest {
  const { servedAt, ...rest } = hostileBotRequestPayload(i);
  return { ...rest, servedAtMs: Date.parse(servedAt) + i * 997, requestId: `r${i}-${rest.requestId}` };
}

/** The envelope the edge records for request `r` with event id `id`, as `JSON.stringify` writes it. */
function expectedJson(r: RecordedBotRequest, id: string): string {
  const { servedAtMs, requestId, ...rest } = r;
  const servedAt = new Date(servedAtMs).toISOString();
  // The payload's keys in their order: servedAt before requestId.
  return JSON.stringify(botRequestRecorded({ ...rest, servedAt, requestId }, { id, occurredAt: servedAt }));
}

function captured(requests: readonly RecordedBotRequest[], firstSeq = 0): RecordedBotRequests {
  const batch = new RecordedBotRequests(PREFIX, 1);
  requests.forEach((r, i) => batch.add(r, firstSeq + i));
  return batch;
}

describe('RecordedBotRequests', () => {
  it('gives back each request as recorded, texts repeated or not, a null snapshot age as null', () => {
    const requests = Array.from({ length: 200 }, (_, i) => request(i));
    const columns = captured(requests).columns();
    expect(requestCount(columns)).toBe(200);
    // Each distinct text once.
    expect(new Set(columns.strings).size).toBe(columns.strings.length);
    requests.forEach((r, i) => expect(recordedBotRequestAt(columns, i)).toEqual(r));
  });

  it('serialises the events byte for byte as JSON.stringify writes their envelopes, keyed by website, ids from the prefix and sequence', () => {
    const requests = Array.from({ length: 150 }, (_, i) => request(i));
    const ids = new BotRequestEventIds(PREFIX);
    const events = encodedEvents(encodeRecordedBotRequests(captured(requests, 1_000).columns()));
    expect(events).toHaveLength(150);
    events.forEach((event, i) => {
      expect(event.json.toString('utf8')).toBe(expectedJson(requests[i], ids.of(1_000 + i)));
      expect({ id: event.id, key: event.key, type: event.type, version: event.version }).toEqual({ id: ids.of(1_000 + i), key: requests[i].websiteId, type: 'BotRequestRecorded', version: 1 });
    });
  });

  it('says where each event id lies in the bytes (no string made), and makes the id strings only when asked', () => {
    const ids = new BotRequestEventIds(PREFIX);
    const batch = encodeRecordedBotRequests(captured(Array.from({ length: 40 }, (_, i) => request(i)), 7).columns());
    const bytes = Buffer.from(batch.bytes);
    const { offset, length } = batch.idInJson!;
    expect(batch.ends).toHaveLength(40);
    for (let i = 0; i < 40; i++) {
      const start = (i === 0 ? 0 : batch.ends[i - 1]) + offset;
      expect(bytes.toString('latin1', start, start + length)).toBe(ids.of(7 + i));
      // Inside event i's JSON, as its "id".
      expect(JSON.parse(bytes.toString('utf8', i === 0 ? 0 : batch.ends[i - 1], batch.ends[i])).id).toBe(ids.of(7 + i));
    }
    expect(batch.ids).toEqual(Array.from({ length: 40 }, (_, i) => ids.of(7 + i)));
    expect(batch.ids).toBe(batch.ids);
  });

  it('writes into the scratch memory it is lent, the same bytes as into its own, and moves to memory of its own when the scratch fills up', () => {
    const columns = captured(Array.from({ length: 60 }, (_, i) => request(i))).columns();
    const own = encodeRecordedBotRequests(columns);
    const roomy = Buffer.alloc(own.bytes.length + 100);
    const inRoomy = encodeRecordedBotRequests(columns, roomy);
    expect(inRoomy.bytes.buffer).toBe(roomy.buffer);
    expect(Buffer.from(inRoomy.bytes).equals(Buffer.from(own.bytes))).toBe(true);
    const small = Buffer.alloc(1_000);
    const grown = encodeRecordedBotRequests(columns, small);
    expect(grown.bytes.buffer).not.toBe(small.buffer);
    expect(Buffer.from(grown.bytes).equals(Buffer.from(own.bytes))).toBe(true);
    expect({ ids: grown.ids, keys: grown.keys, ends: [...grown.ends] }).toEqual({ ids: own.ids, keys: own.keys, ends: [...own.ends] });
  });

  it('keeps the columns taken before later adds, and drops the first requests of a batch on request', () => {
    const batch = captured([request(1), request(2)]);
    const before = batch.columns();
    batch.add(request(3), 2);
    expect(requestCount(before)).toBe(2);
    const later = columnsFrom(batch.columns(), 1);
    expect([0, 1].map((i) => recordedBotRequestAt(later, i))).toEqual([request(2), request(3)]);
    expect(requestIdsOf(columnsFrom(batch.columns(), 2))).toEqual([request(3).requestId]);
  });

  it('keeps request ids that are lower-case UUIDs (the edge\'s) as their bytes, any other id as it is, each back in its place', () => {
    const ids = Array.from({ length: 300 }, (_, i) => (i % 7 === 3 ? `other-${i}` : i % 11 === 5 ? randomUUID().toUpperCase() : randomUUID()));
    const requests = ids.map((requestId, i) => ({ ...request(i), requestId }));
    const columns = captured(requests).columns();
    expect(requestIdsOf(columns)).toEqual(ids);
    expect([...columns.otherRequestIds.values()]).toEqual(ids.filter((id) => id !== id.toLowerCase() || id.startsWith('other-')));
    expect(columns.requestUuids).toHaveLength(300 * 16);
    // Dropping the first requests moves the other ids with their requests.
    for (const first of [1, 3, 4, 150, 299, 300]) expect(requestIdsOf(columnsFrom(columns, first))).toEqual(ids.slice(first));
    // The events carry the ids as recorded.
    const events = encodedEvents(encodeRecordedBotRequests(columns));
    expect(events.map((event) => (JSON.parse(event.json.toString('utf8')) as { payload: { requestId: string } }).payload.requestId)).toEqual(ids);
  });

  it('refuses, adding nothing, a request whose event could not be written', () => {
    const batch = captured([request(1)]);
    expect(() => batch.add({ ...request(2), pageTitle: undefined as unknown as string }, 1)).toThrow('pageTitle is undefined, not a string');
    expect(() => batch.add({ ...request(2), bytes: '5' as unknown as number }, 1)).toThrow('bytes is string, not a number');
    expect(() => batch.add({ ...request(2), servedAtMs: 9e15 }, 1)).toThrow('servedAtMs 9000000000000000 is not a time');
    expect(() => batch.add({ ...request(2), requestId: 7 as unknown as string }, 1)).toThrow('requestId is number, not a string');
    expect(batch.count).toBe(1);
    expect(() => new RecordedBotRequests(PREFIX).add({ ...request(2), websiteId: undefined as unknown as string }, 0)).toThrow('websiteId is undefined, not a string');
    batch.add({ ...request(2), snapshotAgeS: null }, 1);
    expect(recordedBotRequestAt(batch.columns(), 1).snapshotAgeS).toBeNull();
  });
});
