import { BotRequestRecorded, recordedBotRequestEvent } from '@bpc/events';
import { recordedBotRequest } from '@bpc/testing';
import { EventBuffer } from './event-buffer';

/** Adds the events of requests r<from>…r<to>. */
function addRange(buffer: EventBuffer<BotRequestRecorded>, from: number, to: number): number {
  let dropped = 0;
  for (let n = from; n <= to; n += 1) {
    dropped += buffer.add(recordedBotRequestEvent({ ...recordedBotRequest(n), requestId: `r${n}` }, `e${n}`));
  }
  return dropped;
}

function requestIds(batch: readonly BotRequestRecorded[] | undefined): readonly string[] {
  return batch!.map((event) => event.payload.requestId);
}

describe('EventBuffer (of bot requests)', () => {
  it('hands out sealed batches of at most batchMax requests in the order they were added; the open batch once sealed', () => {
    const buffer = new EventBuffer<BotRequestRecorded>(100, 3);
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

  it('drops the oldest requests beyond its capacity, one per add, from sealed and open batches alike', () => {
    const buffer = new EventBuffer<BotRequestRecorded>(4, 3);
    expect(addRange(buffer, 1, 4)).toBe(0);
    expect(addRange(buffer, 5, 9)).toBe(5);
    expect(buffer.size).toBe(4);
    buffer.seal();
    expect(requestIds(buffer.take())).toEqual(['r6']);
    expect(requestIds(buffer.take())).toEqual(['r7', 'r8', 'r9']);

    const small = new EventBuffer<BotRequestRecorded>(2, 10);
    expect(addRange(small, 1, 5)).toBe(3);
    expect(small.size).toBe(2);
    small.seal();
    expect(requestIds(small.take())).toEqual(['r4', 'r5']);
  });

  it('takes a refused batch back at the front, dropping its oldest requests when they no longer fit', () => {
    const buffer = new EventBuffer<BotRequestRecorded>(5, 3);
    addRange(buffer, 1, 3);
    const refused = buffer.take()!;
    addRange(buffer, 4, 6);
    expect(buffer.putBack([refused])).toBe(1);
    expect(buffer.size).toBe(5);
    expect(requestIds(buffer.take())).toEqual(['r2', 'r3']);
    expect(requestIds(buffer.take())).toEqual(['r4', 'r5', 'r6']);
  });

  it('takes several refused batches back in their order, dropping the oldest requests of the first', () => {
    const buffer = new EventBuffer<BotRequestRecorded>(6, 3);
    addRange(buffer, 1, 6);
    const refused = [buffer.take()!, buffer.take()!];
    addRange(buffer, 7, 8);
    expect(buffer.putBack(refused)).toBe(2);
    expect(requestIds(buffer.take())).toEqual(['r3']);
    expect(requestIds(buffer.take())).toEqual(['r4', 'r5', 'r6']);
    buffer.seal();
    expect(requestIds(buffer.take())).toEqual(['r7', 'r8']);
  });
});
