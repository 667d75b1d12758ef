import { HOSTILE_TEXTS, hostileBotRequestPayload } from '@bpc/testing';
import { encodeEnvelope } from '../encoded-event';
import { envelope } from '../envelope';
import { BOT_REQUEST_RECORDED, botRequestRecorded, BotRequestRecordedPayload } from './bot-request-recorded.event';
import { BotRequestJsonBatch, encodeBotRequests } from './bot-request-json';
import { BotRequestEventIds } from './bot-request-event-ids';

const HOSTILE = HOSTILE_TEXTS;
const payload = hostileBotRequestPayload;

/** The event the edge records for `p`: it occurred when served. */
const served = (p: BotRequestRecordedPayload, id: string) => botRequestRecorded(p, { id, occurredAt: p.servedAt });

describe('encodeBotRequests', () => {
  it('writes the JSON.stringify of each envelope, for hostile strings in every field', () => {
    const events = Array.from({ length: 120 }, (_, i) => botRequestRecorded(payload(i, (n) => HOSTILE[n % HOSTILE.length]), { id: `id-${HOSTILE[i % HOSTILE.length]}`, occurredAt: new Date(1_763_740_000_000 + i).toISOString() }));
    const encoded = encodeBotRequests(events);
    expect(encoded).toHaveLength(events.length);
    encoded.forEach((event, i) => {
      const expected = encodeEnvelope(events[i]);
      expect(event.json.toString('utf8')).toBe(expected.json.toString('utf8'));
      expect(Buffer.compare(event.json, expected.json)).toBe(0);
      expect({ type: event.type, version: event.version, id: event.id, key: event.key }).toEqual({ type: expected.type, version: expected.version, id: expected.id, key: expected.key });
    });
  });

  it('matches on random text, and grows its buffer past the room it starts with', () => {
    let seed = 42;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
      return seed % n;
    };
    // Code units of every kind, surrogates included, up to 3,000 of them: events far larger than the initial room.
    const text = (): string => String.fromCharCode(...Array.from({ length: random(2) === 0 ? random(40) : random(3_000) }, () => (random(4) === 0 ? random(0x10000) : random(0x80))));
    const events = Array.from({ length: 100 }, (_, i) => served(payload(i, () => text()), text()));
    const encoded = encodeBotRequests(events);
    encoded.forEach((event, i) => expect(Buffer.compare(event.json, encodeEnvelope(events[i]).json)).toBe(0));
    // Every event parses back to its envelope.
    encoded.forEach((event, i) => expect(JSON.parse(event.json.toString('utf8'))).toEqual(events[i]));
  });

  it('writes numbers as JSON.stringify does (negative, fractional, -0, NaN, beyond safe integers, null), and refuses a field without JSON', () => {
    const odd = [-5, 1.5, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, 0, 9, 10, 1_000_000_007];
    const events = odd.map((n, i) => served({ ...payload(i, () => 'x'), statusCode: n, serveTimeMs: odd[(i + 3) % odd.length], snapshotAgeS: i % 2 ? null : n, bytes: odd[(i + 7) % odd.length] }, `e${i}`));
    encodeBotRequests(events).forEach((event, i) => expect(event.json.toString('utf8')).toBe(encodeEnvelope(events[i]).json.toString('utf8')));
    const missing = served({ ...payload(0, () => 'x'), pageTitle: undefined as unknown as string }, 'e');
    expect(() => encodeBotRequests([missing])).toThrow('a field has no JSON value (undefined)');
  });

  it('takes as reference the envelope envelope() builds, keys in the same order', () => {
    const p = payload(3, (n) => HOSTILE[n % HOSTILE.length]);
    const at = new Date(1_763_740_000_123);
    expect(JSON.stringify(botRequestRecorded(p, { id: 'e3', occurredAt: at.toISOString() }))).toBe(JSON.stringify(envelope(BOT_REQUEST_RECORDED, 1, p, { id: 'e3', occurredAt: at, key: p.websiteId })));
  });

  it('encodes nothing for no events, and refuses an event the edge would not write: not keyed by its website, or not occurring when served', () => {
    expect(encodeBotRequests([])).toEqual([]);
    const event = served(payload(1, () => 'w'), 'e1');
    expect(() => encodeBotRequests([{ ...event, key: 'other' }])).toThrow('event e1 is keyed "other", not by its website');
    for (const occurredAt of ['2026-11-21T00:00:00.000Z', '2025-11-21T10:26:40.001+00:00', 'soon']) {
      expect(() => encodeBotRequests([{ ...event, occurredAt }])).toThrow('event e1 does not occur when served');
    }
    const notIso = { ...event, occurredAt: '2025-11-21T10:26:40.001+00:00', payload: { ...event.payload, servedAt: '2025-11-21T10:26:40.001+00:00' } };
    expect(() => encodeBotRequests([notIso])).toThrow('event e1 does not occur when served');
  });
});

describe('BotRequestJsonBatch', () => {
  it('leaves the batch as it was when an event cannot be written, and grows past the events it expected', () => {
    const batch = new BotRequestJsonBatch(1);
    const events = [0, 1, 2].map((i) => served(payload(i, (n) => HOSTILE[n % HOSTILE.length]), `e${i}`));
    const recorded = events.map((e) => ({ ...e.payload, servedAtMs: Date.parse(e.payload.servedAt) }));
    batch.add(events[0].id, recorded[0]);
    expect(() => batch.add('bad', { ...recorded[1], host: undefined as unknown as string })).toThrow('a field has no JSON value');
    expect(() => batch.add('bad', { ...recorded[1], servedAtMs: Number.NaN })).toThrow(RangeError);
    batch.add(events[1].id, recorded[1]);
    batch.add(events[2].id, recorded[2]);
    const encoded = batch.encoded();
    expect(batch.count).toBe(3);
    expect(encoded.ids).toEqual(['e0', 'e1', 'e2']);
    expect(encoded.keys).toEqual(events.map((e) => e.payload.websiteId));
    expect(Buffer.from(encoded.bytes).toString('utf8')).toBe(events.map((e) => JSON.stringify(e)).join(''));
    expect([...encoded.ends]).toEqual(events.reduce<number[]>((ends, e) => [...ends, (ends.at(-1) ?? 0) + Buffer.byteLength(JSON.stringify(e))], []));
  });

  it('writes the JSON.stringify of each envelope while pages and responses repeat from event to event, in any mix, with hostile texts and odd numbers', () => {
    // Each field keeps its value for its own prime number of events, so every field changes alone at some point
    // (at its prime), and several together at others; NaN never equals itself.
    const odd = [200, Number.NaN, -0, 0, 1.5];
    const text = (i: number, period: number) => HOSTILE[Math.floor(i / period) % HOSTILE.length];
    const number = (i: number, period: number) => odd[Math.floor(i / period) % odd.length];
    const events = Array.from({ length: 400 }, (_, i) => {
      const p: BotRequestRecordedPayload = {
        websiteId: text(i, 11),
        host: text(i, 7),
        url: `https://www.example.com/${text(i, 5)}`,
        pageTitle: text(i, 3),
        statusCode: number(i, 13),
        botName: text(i, 17),
        userAgent: text(i, 19),
        dimensionId: number(i, 23),
        dimensionName: text(i, 29),
        cacheStatus: (['hit', 'miss', 'stale', 'bypass'] as const)[Math.floor(i / 2) % 4],
        serveTimeMs: i,
        snapshotAgeS: i % 3 ? i : null,
        bytes: i * 3,
        servedAt: new Date(1_763_740_000_000 + i * 37).toISOString(),
        requestId: `r${i}`,
      };
      return served(p, `e${i}`);
    });
    encodeBotRequests(events).forEach((event, i) => expect(event.json.toString('utf8')).toBe(JSON.stringify(events[i])));
  });

  it('repeats only what was written for events it took: after a refused event, the next one is written from the last one in', () => {
    const batch = new BotRequestJsonBatch(1);
    const first = served(payload(1), 'e1');
    const recorded = (e: typeof first) => ({ ...e.payload, servedAtMs: Date.parse(e.payload.servedAt) });
    batch.add(first.id, recorded(first));
    // Refused after its page and response were written: a new title and bot, then no request id.
    const other = { ...recorded(first), pageTitle: 'another title', botName: 'OtherBot' };
    expect(() => batch.add('bad', { ...other, requestId: undefined as unknown as string })).toThrow('a field has no JSON value');
    const again = served({ ...first.payload, serveTimeMs: 99 }, 'e2');
    const changed = served({ ...first.payload, pageTitle: 'another title', botName: 'OtherBot' }, 'e3');
    batch.add(again.id, recorded(again));
    batch.add(changed.id, recorded(changed));
    batch.add(again.id, recorded(again));
    expect(Buffer.from(batch.encoded().bytes).toString('utf8')).toBe([first, again, changed, again].map((e) => JSON.stringify(e)).join(''));
  });
});

describe('BotRequestJsonBatch with numbered ids', () => {
  const ids = new BotRequestEventIds('0123456789abcdef0123456789abcdef');
  const recorded = (e: ReturnType<typeof served>) => ({ ...e.payload, servedAtMs: Date.parse(e.payload.servedAt) });

  it('writes the id its event ids give each sequence number, says where, and after a refused event goes on from the last one in', () => {
    const batch = new BotRequestJsonBatch(1, undefined, ids);
    const events = [0, 1, 2].map((i) => served(payload(i, (n) => HOSTILE[n % HOSTILE.length]), ids.of(100 + i)));
    batch.addNumbered(100, recorded(events[0]));
    expect(() => batch.addNumbered(101, { ...recorded(events[1]), requestId: undefined as unknown as string })).toThrow('a field has no JSON value');
    batch.addNumbered(101, recorded(events[1]));
    batch.addNumbered(102, recorded(events[2]));
    const encoded = batch.encoded();
    const bytes = Buffer.from(encoded.bytes);
    expect(bytes.toString('utf8')).toBe(events.map((e) => JSON.stringify(e)).join(''));
    const at = (i: number) => (i === 0 ? 0 : encoded.ends[i - 1]) + encoded.idInJson!.offset;
    expect([0, 1, 2].map((i) => bytes.toString('latin1', at(i), at(i) + encoded.idInJson!.length))).toEqual(events.map((e) => e.id));
    expect(encoded.ids).toEqual(events.map((e) => e.id));
  });

  it('takes ids one way per batch: strings without event ids, sequence numbers with them', () => {
    const event = served(payload(1), 'e1');
    expect(() => new BotRequestJsonBatch(1, undefined, ids).add('e1', recorded(event))).toThrow('this batch numbers its events');
    expect(() => new BotRequestJsonBatch(1).addNumbered(1, recorded(event))).toThrow('no event ids');
    expect(new BotRequestJsonBatch(1).encoded().idInJson).toBeUndefined();
  });
});

describe('encodeEnvelope', () => {
  it('refuses an event without a string key', () => {
    expect(() => encodeEnvelope({ type: 'X', version: 1, id: 'e1', occurredAt: '2026-11-21T00:00:00.000Z', key: undefined as unknown as string, payload: {} })).toThrow('event e1 has no string key');
  });
});
