import { BotRequestRecordedPayload, EncodedEventBatch, encodedEvents } from '@bpc/events';
import { recordedBotRequest } from '@bpc/testing';
import { BotRequestBuffer } from './bot-request-buffer';

/** Adds requests r<from>…r<to> (the event id is the request id, the event occurred when served). */
function addRange(buffer: BotRequestBuffer, from: number, to: number): number {
  let dropped = 0;
  for (let n = from; n <= to; n += 1) {
    dropped += buffer.add(`r${n}`, { ...recordedBotRequest(n), requestId: `r${n}` });
  }
  return dropped;
}

/** The request ids a batch holds, read back from its JSON; checks ids and keys match the JSON. */
function requestIds(batch: EncodedEventBatch | undefined): string[] {
  return encodedEvents(batch!).map((event) => {
    const parsed = JSON.parse(event.json.toString('utf8')) as { id: string; key: string; payload: BotRequestRecordedPayload };
    expect([event.id, event.key]).toEqual([parsed.id, parsed.key]);
    return parsed.payload.requestId;
  });
}

describe('BotRequestBuffer', () => {
  it('hands out sealed batches of at most batchMax events in the order they were added; the open batch once sealed', () => {
    const buffer = new BotRequestBuffer(100, 3);
    buffer.seal();
    expect(buffer.take()).toBeUndefined();
    expect(addRange(buffer, 1, 7)).toBe(0);
    expect(buffer.size).toBe(7);
    expect(requestIds(buffer.take())).toEqual(['r1', 'r2', 'r3']);
    expect(requestIds(buffer.take())).toEqual(['r4', 'r5', 'r6']);
    expect(buffer.take()).toBeUndefined();
    expect(buffer.size).toBe(1);
    buffer.seal();
    expect(requestIds(buffer.take())).toEqual(['r7']);
    expect(buffer.size).toBe(0);
    buffer.seal();
    expect(buffer.take()).toBeUndefined();
  });

  it('drops the oldest events beyond its capacity, one per add, from sealed and open batches alike', () => {
    const buffer = new BotRequestBuffer(4, 3);
    expect(addRange(buffer, 1, 4)).toBe(0);
    expect(addRange(buffer, 5, 9)).toBe(5);
    expect(buffer.size).toBe(4);
    buffer.seal();
    expect(requestIds(buffer.take())).toEqual(['r6']);
    expect(requestIds(buffer.take())).toEqual(['r7', 'r8', 'r9']);

    const small = new BotRequestBuffer(2, 10);
    expect(addRange(small, 1, 5)).toBe(3);
    expect(small.size).toBe(2);
    small.seal();
    expect(requestIds(small.take())).toEqual(['r4', 'r5']);
  });

  it('takes a refused batch back at the front, dropping its oldest events when they no longer fit', () => {
    const buffer = new BotRequestBuffer(5, 3);
    addRange(buffer, 1, 3);
    const refused = buffer.take()!;
    addRange(buffer, 4, 6);
    expect(buffer.putBack(refused)).toBe(1);
    expect(buffer.size).toBe(5);
    expect(requestIds(buffer.take())).toEqual(['r2', 'r3']);
    expect(requestIds(buffer.take())).toEqual(['r4', 'r5', 'r6']);
  });

  it('adds nothing for a request that has no JSON', () => {
    const buffer = new BotRequestBuffer(5, 3);
    addRange(buffer, 1, 1);
    expect(() => buffer.add('bad', { ...recordedBotRequest(2), pageTitle: undefined as unknown as string })).toThrow('a field has no JSON value');
    expect(buffer.size).toBe(1);
    addRange(buffer, 3, 3);
    buffer.seal();
    expect(requestIds(buffer.take())).toEqual(['r1', 'r3']);
  });
});
