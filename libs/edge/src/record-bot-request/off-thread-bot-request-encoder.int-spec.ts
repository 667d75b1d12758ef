import { botRequestTuple, encodeBotRequests } from '@bpc/events';
import { silentLog } from '@bpc/domain';
import { botRequestPayload } from '@bpc/testing';
import { OffThreadBotRequestEncoder } from './off-thread-bot-request-encoder';

const tuples = Array.from({ length: 500 }, (_, n) => botRequestTuple({ ...botRequestPayload(n), pageTitle: n % 3 ? 'Prix — « été »' : `"quoted" ${n}` }, { id: `e${n}`, occurredAt: new Date(1_763_740_000_000 + n).toISOString() }));

describe('OffThreadBotRequestEncoder', () => {
  it('gives the events encodeBotRequests gives, encoded in its worker thread', async () => {
    const encoder = new OffThreadBotRequestEncoder(silentLog);
    try {
      const [offThread, inThread] = [await encoder.encode(tuples), encodeBotRequests(tuples)];
      expect(offThread.map((e) => ({ ...e, json: e.json.toString('utf8') }))).toEqual(inThread.map((e) => ({ ...e, json: e.json.toString('utf8') })));
      expect(await encoder.encode([])).toEqual([]);
      expect(encoder.encodedHere).toBe(0);
    } finally {
      await encoder.close();
    }
  });

  it('rejects a batch that cannot be encoded, and keeps encoding the next ones', async () => {
    const encoder = new OffThreadBotRequestEncoder(silentLog);
    try {
      const broken = botRequestTuple({ ...botRequestPayload(1), host: undefined as unknown as string }, { id: 'bad', occurredAt: 't' });
      await expect(encoder.encode([tuples[0], broken])).rejects.toThrow('a field has no JSON value (undefined)');
      expect((await encoder.encode(tuples.slice(0, 3))).map((e) => e.id)).toEqual(['e0', 'e1', 'e2']);
      // The worker's refusal, not encoded again here.
      expect(encoder.encodedHere).toBe(0);
    } finally {
      await encoder.close();
    }
  });

  it('encodes in this thread when its worker cannot take the batch (here: closed), and says so once when that lasts', async () => {
    const errors: string[] = [];
    const encoder = new OffThreadBotRequestEncoder({ ...silentLog, error: (_fields, message) => void errors.push(message) });
    await encoder.encode(tuples.slice(0, 1));
    await encoder.close();
    const events = await encoder.encode(tuples.slice(0, 10));
    expect(events.map((e) => e.json.toString('utf8'))).toEqual(encodeBotRequests(tuples.slice(0, 10)).map((e) => e.json.toString('utf8')));
    expect(encoder.encodedHere).toBe(1);
    for (let n = 0; n < 4; n++) await encoder.encode(tuples.slice(0, 2));
    expect(encoder.encodedHere).toBe(5);
    expect(errors).toEqual(['bot request encoder: worker failed repeatedly; encoding on the serving thread from now on']);
    await expect(encoder.encode([botRequestTuple({ ...botRequestPayload(1), host: undefined as unknown as string }, { id: 'bad', occurredAt: 't' })])).rejects.toThrow('has no JSON value');
  });
});
