import { envelope } from '../envelope';
import { BOT_REQUEST_RECORDED, BotRequestRecordedPayload } from './bot-request-recorded.event';
import { TUPLE_EVENT_DECODERS } from '../event-tuples';
import { botRequestEnvelope, botRequestTuple } from './bot-request-tuple';

const payload = (overrides: Partial<BotRequestRecordedPayload> = {}): BotRequestRecordedPayload => ({
  websiteId: 'demo',
  host: 'www.example.com',
  url: 'https://www.example.com/pricing?plan=pro&q=%22x%22',
  pageTitle: 'Pricing — "Example"\n\ttabs, \u2028 and \\ slashes',
  statusCode: 200,
  botName: 'Googlebot',
  userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  dimensionId: 1,
  dimensionName: 'desktop',
  cacheStatus: 'hit',
  serveTimeMs: 3,
  snapshotAgeS: 12,
  bytes: 2319,
  servedAt: '2026-11-21T10:00:00.123Z',
  requestId: '4f1c2b9e-0000-4000-8000-000000000001',
  ...overrides,
});

describe('BotRequestTuple', () => {
  const meta = { id: '0b6f3a52-1111-4222-8333-444455556666', occurredAt: '2026-11-21T10:00:00.123Z' };
  const cases: [string, BotRequestRecordedPayload][] = [
    ['a hit', payload()],
    ['a miss without snapshot', payload({ cacheStatus: 'miss', snapshotAgeS: null, pageTitle: '', statusCode: 504 })],
    ['an unknown bot with a non-ASCII user agent', payload({ botName: 'unknown', userAgent: 'Бот/1.0 🤖', cacheStatus: 'bypass', snapshotAgeS: null })],
  ];

  it.each(cases)('rebuilds the envelope the edge would have built for %s, field order included', (_what, p) => {
    const expected = envelope(BOT_REQUEST_RECORDED, 1, p, { id: meta.id, occurredAt: new Date(meta.occurredAt), key: p.websiteId });
    const rebuilt = botRequestEnvelope(botRequestTuple(p, meta));
    expect(rebuilt).toEqual(expected);
    // The JSON (the Kafka value, the log record) is byte for byte the same.
    expect(JSON.stringify(rebuilt)).toBe(JSON.stringify(expected));
  });

  it('survives the structured clone that carries it to another thread, and is decoded by its type', () => {
    const tuple = botRequestTuple(payload({ snapshotAgeS: null }), meta);
    const cloned = structuredClone(tuple);
    expect(TUPLE_EVENT_DECODERS[BOT_REQUEST_RECORDED](cloned)).toEqual(botRequestEnvelope(tuple));
  });
});
