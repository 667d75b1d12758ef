import { botRequestPayload, committedEventSchemas, PublishedEventValidator, recordedBotRequest } from '@bpc/testing';
import { envelope } from './envelope';
import { EVENT_CATALOG } from './event-catalog';
import { botRequestRecorded, recordedBotRequestEvent } from './explorer/bot-request-recorded.event';
import { API_TOKEN_ISSUED, IDENTITY_KEY } from './identity/identity-events';
import { newQueueEvent } from './queue/new-queue-event';
import { RECACHE_REQUESTED } from './queue/recache-requested.event';
import { ENVELOPE_SCHEMA_FILE, eventSchemaFile, publishedEventSchemas } from './published-event-schemas';

describe('published event schemas (deploy/event-schemas)', () => {
  const validator = new PublishedEventValidator();
  const meta = { id: 'e1', occurredAt: new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 6)), key: IDENTITY_KEY };

  it('are the files the catalog in the code generates, one per event type and version plus the envelope (refresh with `npm run event-schemas`)', () => {
    const generated = publishedEventSchemas();
    expect([...committedEventSchemas().keys()]).toEqual([...generated.keys()].sort());
    for (const [name, text] of committedEventSchemas()) expect(text).toBe(generated.get(name));
    expect(generated.has(ENVELOPE_SCHEMA_FILE)).toBe(true);
    for (const { type, version } of Object.values(EVENT_CATALOG)) expect(generated.has(eventSchemaFile(type, version))).toBe(true);
  });

  it('accept a bot request served without a snapshot (snapshotAgeS null), as the edge encodes it', () => {
    const events = [
      recordedBotRequestEvent({ ...recordedBotRequest(0), cacheStatus: 'miss', snapshotAgeS: null }, 'e-miss'),
      recordedBotRequestEvent({ ...recordedBotRequest(1), cacheStatus: 'hit', snapshotAgeS: 42 }, 'e-hit'),
    ].map((event) => JSON.parse(JSON.stringify(event)));
    expect(events.map((event) => event.payload.snapshotAgeS)).toEqual([null, 42]);
    for (const event of events) expect(validator.problems(event)).toBeUndefined();
  });

  it('accept an API token issued without expiry (expiresAt null) and one with', () => {
    const issued = (expiresAt: string | null) => JSON.parse(JSON.stringify(envelope(API_TOKEN_ISSUED, 1, { tokenId: 'tok_a', userId: 'u1', sha256: 'ab'.repeat(32), label: '', expiresAt }, meta)));
    expect(validator.problems(issued(null))).toBeUndefined();
    expect(validator.problems(issued('2027-01-01T00:00:00.000Z'))).toBeUndefined();
  });

  it('accept page URLs as the WHATWG URL standard serialises them, characters RFC 3986 leaves out included', () => {
    const url = new URL('https://www.example.com/a|b?q={x}&r=[1]^').href;
    const served = botRequestRecorded({ ...botRequestPayload(1), url }, { id: 'e2', occurredAt: botRequestPayload(1).servedAt });
    expect(validator.problems(served)).toBeUndefined();
    const requested = newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls: [url], dimensionIds: [1], priority: 'high', source: 'daemon-api' }, '1', meta.occurredAt.getTime());
    expect(validator.problems(JSON.parse(JSON.stringify(requested)))).toBeUndefined();
  });

  it('reject what the contract does not allow, naming the field: a missing field, a null where a value is required, an unknown field, an unknown type', () => {
    const served = botRequestRecorded(botRequestPayload(1), { id: 'e3', occurredAt: botRequestPayload(1).servedAt });
    const { pageTitle: _, ...withoutTitle } = served.payload;
    expect(validator.problems({ ...served, payload: withoutTitle })).toContain("/payload must have required property 'pageTitle'");
    expect(validator.problems({ ...served, payload: { ...served.payload, statusCode: null } })).toContain('/payload/statusCode must be integer');
    expect(validator.problems({ ...served, payload: { ...served.payload, extra: 1 } })).toContain('/payload must NOT have additional properties');
    expect(validator.problems({ ...served, version: 2 })).toBe('no published schema for BotRequestRecorded v2 (BotRequestRecorded.v2.json)');
  });
});
