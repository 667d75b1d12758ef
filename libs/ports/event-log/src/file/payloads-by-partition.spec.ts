import type { EventEnvelope } from '@bpc/events';
import { keyedPayloads, keyedPayloadsInSlices } from './payloads-by-partition';

const event = (n: number): EventEnvelope => ({ type: 'SliceSpecHappened', version: 1, id: `e${n}`, occurredAt: new Date(0).toISOString(), key: `k${n % 3}`, payload: { n } });
const events = Array.from({ length: 25 }, (_, n) => event(n));

describe('keyedPayloadsInSlices', () => {
  it('encodes as keyedPayloads does, in order', async () => {
    expect(await keyedPayloadsInSlices(events, 10)).toEqual(keyedPayloads(events));
    expect(await keyedPayloadsInSlices([], 10)).toEqual([]);
  });

  it('lets the event loop turn between two slices', async () => {
    const order: string[] = [];
    const encoding = keyedPayloadsInSlices(events, 10).then(() => order.push('encoded'));
    setImmediate(() => order.push('a turn of the event loop'));
    await encoding;
    expect(order).toEqual(['a turn of the event loop', 'encoded']);
  });

  it('rejects for an event it cannot encode in a later slice, naming the event without a key', async () => {
    await expect(keyedPayloadsInSlices([...events, { ...event(99), key: undefined as unknown as string }], 10)).rejects.toThrow('event e99 has no string key');
  });
});
