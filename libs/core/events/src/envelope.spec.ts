import { envelope, envelopeJsonTest } from './envelope';

describe('envelopeJsonTest', () => {
  const stored = Buffer.from(JSON.stringify(envelope('BotRequestRecorded', 1, { n: 1 }, { id: 'e1', occurredAt: new Date(0), key: 'w' })));

  it('knows the JSON of an envelope as envelope() writes it', () => {
    expect(envelopeJsonTest('BotRequestRecorded', 1)(stored)).toBe(true);
  });

  it('tells other types and versions apart', () => {
    expect(envelopeJsonTest('BotRequestRecorded', 2)(stored)).toBe(false);
    expect(envelopeJsonTest('BotRequest', 1)(stored)).toBe(false);
  });

  it('says false for the same envelope written in another key order (it must then be parsed)', () => {
    const reordered = Buffer.from(JSON.stringify({ version: 1, type: 'BotRequestRecorded', id: 'e1' }));
    expect(envelopeJsonTest('BotRequestRecorded', 1)(reordered)).toBe(false);
  });
});
