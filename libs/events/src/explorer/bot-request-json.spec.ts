import { encodeEnvelope } from '../encoded-event';
import { TUPLE_EVENT_ENCODERS } from '../event-tuples';
import { BOT_REQUEST_RECORDED, BotRequestRecordedPayload } from './bot-request-recorded.event';
import { encodeBotRequests } from './bot-request-json';
import { botRequestEnvelope, botRequestTuple, BotRequestTuple } from './bot-request-tuple';

/** Strings JSON must escape or encode with care: quotes, backslashes, controls, separators, lone surrogates, astral characters. */
const HOSTILE = ['', '"', '\\', '\\"', '\n\r\t\b\f', '\u0000\u001f\u007f', '\u2028\u2029', '\ud800', 'a\udfffb', '🤖 Бот', 'é', 'x'.repeat(64), 'y'.repeat(65), '</script>', 'Pricing — "Example"'];

function payload(i: number, text: (n: number) => string): BotRequestRecordedPayload {
  return {
    websiteId: text(i),
    host: text(i + 1),
    url: `https://www.example.com/${text(i + 2)}`,
    pageTitle: text(i + 3),
    statusCode: [200, 404, 504][i % 3],
    botName: text(i + 4),
    userAgent: text(i + 5),
    dimensionId: i % 4,
    dimensionName: text(i + 6),
    cacheStatus: (['hit', 'miss', 'stale', 'bypass'] as const)[i % 4],
    serveTimeMs: i * 7,
    snapshotAgeS: i % 5 === 0 ? null : i * 31,
    bytes: i * 1_013,
    servedAt: new Date(1_763_740_000_000 + i).toISOString(),
    requestId: text(i + 7),
  };
}

/** What the envelope path writes for a tuple: the reference the batch encoder must match byte for byte. */
const reference = (tuple: BotRequestTuple) => encodeEnvelope(botRequestEnvelope(tuple));

describe('encodeBotRequests', () => {
  it('writes the JSON.stringify of each envelope, for hostile strings in every field', () => {
    const tuples = Array.from({ length: 120 }, (_, i) => botRequestTuple(payload(i, (n) => HOSTILE[n % HOSTILE.length]), { id: `id-${HOSTILE[i % HOSTILE.length]}`, occurredAt: new Date(1_763_740_000_000 + i).toISOString() }));
    const encoded = encodeBotRequests(tuples);
    expect(encoded).toHaveLength(tuples.length);
    encoded.forEach((event, i) => {
      const expected = reference(tuples[i]);
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
    const tuples = Array.from({ length: 100 }, (_, i) => botRequestTuple(payload(i, () => text()), { id: text(), occurredAt: text() }));
    const encoded = encodeBotRequests(tuples);
    encoded.forEach((event, i) => expect(Buffer.compare(event.json, reference(tuples[i]).json)).toBe(0));
    // Every event parses back to its envelope.
    encoded.forEach((event, i) => expect(JSON.parse(event.json.toString('utf8'))).toEqual(botRequestEnvelope(tuples[i])));
  });

  it('writes numbers as JSON.stringify does (negative, fractional, -0, NaN, beyond safe integers, null), and refuses a field without JSON', () => {
    const odd = [-5, 1.5, -0, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 60, 0, 9, 10, 1_000_000_007];
    const tuples = odd.map((n, i) => botRequestTuple({ ...payload(i, () => 'x'), statusCode: n, serveTimeMs: odd[(i + 3) % odd.length], snapshotAgeS: i % 2 ? null : n, bytes: odd[(i + 7) % odd.length] }, { id: `e${i}`, occurredAt: 't' }));
    encodeBotRequests(tuples).forEach((event, i) => expect(event.json.toString('utf8')).toBe(reference(tuples[i]).json.toString('utf8')));
    const missing = botRequestTuple({ ...payload(0, () => 'x'), pageTitle: undefined as unknown as string }, { id: 'e', occurredAt: 't' });
    expect(() => encodeBotRequests([missing])).toThrow('a field has no JSON value (undefined)');
  });

  it('encodes nothing for no tuples, and is the tuple encoder of its event type', () => {
    expect(encodeBotRequests([])).toEqual([]);
    expect(TUPLE_EVENT_ENCODERS[BOT_REQUEST_RECORDED]).toBe(encodeBotRequests);
  });
});

describe('encodeEnvelope', () => {
  it('refuses an event without a string key', () => {
    expect(() => encodeEnvelope({ type: 'X', version: 1, id: 'e1', occurredAt: '2026-11-21T00:00:00.000Z', key: undefined as unknown as string, payload: {} })).toThrow('event e1 has no string key');
  });
});
