import { envelope, isEnvelopeJsonOf } from './envelope';

describe('isEnvelopeJsonOf', () => {
  const stored = Buffer.from(JSON.stringify(envelope('BotRequestRecorded', 1, { n: 1 }, { id: 'e1', occurredAt: new Date(0), key: 'w' })));

  it('knows the JSON of an envelope as envelope() writes it', () => {
    expect(isEnvelopeJsonOf(stored, 'BotRequestRecorded', 1)).toBe(true);
  });

  it('tells other types and versions apart', () => {
    expect(isEnvelopeJsonOf(stored, 'BotRequestRecorded', 2)).toBe(false);
    expect(isEnvelopeJsonOf(stored, 'BotRequest', 1)).toBe(false);
  });

  it('says false for the same envelope written in another key order (it must then be parsed)', () => {
    const reordered = Buffer.from(JSON.stringify({ version: 1, type: 'BotRequestRecorded', id: 'e1' }));
    expect(isEnvelopeJsonOf(reordered, 'BotRequestRecorded', 1)).toBe(false);
  });
});
