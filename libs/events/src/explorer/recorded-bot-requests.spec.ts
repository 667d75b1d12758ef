import { hostileBotRequestPayload } from '@bpc/testing';
import { encodedEvents } from '../encoded-event';
import { RecordedBotRequest } from './bot-request-json';
import { botRequestRecorded } from './bot-request-recorded.event';
import { BotRequestEventIds, columnsFrom, encodeRecordedBotRequests, recordedBotRequestAt, RecordedBotRequests } from './recorded-bot-requests';

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
    expect(columns.requestIds).toHaveLength(200);
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
    expect(before.requestIds).toHaveLength(2);
    const later = columnsFrom(batch.columns(), 1);
    expect([0, 1].map((i) => recordedBotRequestAt(later, i))).toEqual([request(2), request(3)]);
    expect(columnsFrom(batch.columns(), 2).requestIds).toEqual([request(3).requestId]);
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

describe('BotRequestEventIds', () => {
  it('writes version 8 UUIDs: distinct for distinct sequence numbers, the same for the same one', () => {
    const ids = new BotRequestEventIds(PREFIX);
    const seen = new Set(Array.from({ length: 10_000 }, (_, i) => ids.of(i)));
    expect(seen.size).toBe(10_000);
    expect(ids.of(5)).toBe(new BotRequestEventIds(PREFIX).of(5));
    for (const id of [ids.of(0), ids.of(2 ** 48 - 1), new BotRequestEventIds('f'.repeat(32)).of(1)]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(ids.of(0)).toBe('01234567-89ab-8def-8123-456789abcdef');
    // The sequence is added to the prefix's last 48 bits, wrapping within them.
    expect(ids.of(1)).toBe('01234567-89ab-8def-8123-456789abcdf0');
    expect(new BotRequestEventIds('f'.repeat(32)).of(1)).toBe('ffffffff-ffff-8fff-bfff-000000000000');
    expect(new BotRequestEventIds(PREFIX).of(0)).not.toBe(new BotRequestEventIds('1'.repeat(32)).of(0));
  });

  it('writes the last 48 bits as the prefix plus the sequence, in any order of sequence numbers and across every carry', () => {
    const ids = new BotRequestEventIds(PREFIX);
    const low = BigInt(`0x${PREFIX.slice(20)}`);
    const expected = (seq: number) => `01234567-89ab-8def-8123-${((low + BigInt(seq)) % 2n ** 48n).toString(16).padStart(12, '0')}`;
    const carries = [0xfff, 0xffffff, 0xfffffffff, 2 ** 48 - 1].map((bits) => Number(BigInt(bits) - low + 2n ** 48n) % 2 ** 48);
    const seqs = [...carries.flatMap((c) => [c - 1, c, c + 1, c + 2]), ...Array.from({ length: 2_000 }, (_, i) => Math.floor(((i * 2_654_435_761) % 2 ** 32) * 65_537) % 2 ** 48)];
    for (const seq of seqs) expect(ids.of(seq)).toBe(expected(seq));
  });

  it('refuses a prefix that is not 32 lowercase hex digits', () => {
    for (const prefix of ['', 'abc', 'G'.repeat(32), 'A'.repeat(32), '0'.repeat(33)]) expect(() => new BotRequestEventIds(prefix)).toThrow('event id prefix must be 32 lowercase hex digits');
  });
});
