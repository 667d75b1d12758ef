import { HOSTILE_TEXTS, hostileBotRequestPayload, PublishedEventValidator, recordedBotRequest } from '@bpc/testing';
import { recordedBotRequestEvent } from './bot-request-recorded.event';

describe('recordedBotRequestEvent', () => {
  const validator = new PublishedEventValidator();

  it('is the v1 event of the request, keyed by its website, occurring when served, its payload in the schema’s order (hostile texts too)', () => {
    for (let i = 0; i < HOSTILE_TEXTS.length * 2; i++) {
      const payload = hostileBotRequestPayload(i);
      const { servedAt, ...rest } = payload;
      const event = recordedBotRequestEvent({ ...rest, servedAtMs: Date.parse(servedAt) }, `e${i}`);
      expect(JSON.stringify(event)).toBe(JSON.stringify({ type: 'BotRequestRecorded', version: 1, id: `e${i}`, occurredAt: servedAt, key: payload.websiteId, payload }));
      expect(validator.problems(JSON.parse(JSON.stringify({ ...event, payload: { ...event.payload, url: 'https://www.example.com/' } })))).toBeUndefined();
    }
  });

  it('throws a TypeError naming the field for a request its event could not be written for', () => {
    expect(() => recordedBotRequestEvent({ ...recordedBotRequest(1), pageTitle: undefined as unknown as string }, 'e')).toThrow('recorded bot request: pageTitle is undefined, not a string');
    expect(() => recordedBotRequestEvent({ ...recordedBotRequest(1), bytes: '1' as unknown as number }, 'e')).toThrow('recorded bot request: bytes is string, not a number');
    expect(() => recordedBotRequestEvent({ ...recordedBotRequest(1), servedAtMs: 8.64e15 + 1 }, 'e')).toThrow('servedAtMs 8640000000000001 is not a time');
    expect(() => recordedBotRequestEvent({ ...recordedBotRequest(1), snapshotAgeS: undefined as unknown as null }, 'e')).toThrow(TypeError);
  });
});
