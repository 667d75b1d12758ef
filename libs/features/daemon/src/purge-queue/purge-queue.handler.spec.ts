import { AUTORECACHE_SCHEDULED, newQueueEvent, QUEUE_PURGED, RECACHE_REQUESTED, TOPICS } from '@bpc/events';
import { openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { PurgeQueue } from './purge-queue.command';
import { PurgeQueueHandler } from './purge-queue.handler';

const T = Date.parse('2026-11-28T02:00:00Z');
const url = (p: string, host = 'www.example.com') => `https://${host}/${p}`;

describe('PurgeQueue', () => {
  let state: StandaloneState;
  let handler: PurgeQueueHandler;
  const clock = new TestClock(T);

  beforeEach(async () => {
    state = await openStandaloneState();
    handler = new PurgeQueueHandler(state.hosts, state.log, state.queue, clock);
    // Given host 1 with one URL queued at each priority (× its two dimensions), and host 2 with one at high.
    await state.given(
      newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls: [url('h')], dimensionIds: [1, 2], priority: 'high', source: 'daemon-api' }, '1', T),
      newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls: [url('n')], dimensionIds: [1, 2], priority: 'normal', source: 'daemon-api' }, '1', T),
      newQueueEvent(AUTORECACHE_SCHEDULED, { hostId: 1, url: url('a'), dimensionId: 1, dueAt: T + 60_000 }, '1', T),
      newQueueEvent(RECACHE_REQUESTED, { hostId: 2, urls: [url('h', 'shop.example.org')], dimensionIds: [1], priority: 'high', source: 'daemon-api' }, '2', T),
    );
  });

  afterEach(() => state.close());

  const totals = async (hostId: number) => {
    const counts = (await state.queue.counts(clock.now(), [hostId])).get(hostId)!;
    return { high: counts.high.total, normal: counts.normal.total, autorecache: counts.autorecache.total };
  };
  const purges = async () => (await state.recorded(TOPICS.queue)).filter((e) => e.type === QUEUE_PURGED);

  it('given no priorities, records QueuePurged of high and normal (never autorecache) and answers what the projection removed', async () => {
    const answer = await handler.execute(new PurgeQueue(1, undefined));

    expect(answer).toEqual({ entries_purged: 4 });
    expect(await totals(1)).toEqual({ high: 0, normal: 0, autorecache: 1 });
    expect(await totals(2)).toEqual({ high: 1, normal: 0, autorecache: 0 });
    expect(await purges()).toEqual([expect.objectContaining({ key: '1', occurredAt: new Date(T).toISOString(), payload: { hostId: 1, priorities: ['high', 'normal'] } })]);
  });

  it('given an empty list, purges the default priorities too: empty is not "purge nothing"', async () => {
    expect(await handler.execute(new PurgeQueue(1, []))).toEqual({ entries_purged: 4 });
    expect((await purges())[0].payload).toEqual({ hostId: 1, priorities: ['high', 'normal'] });
  });

  it('given named priorities, records each once in drain order and removes only those', async () => {
    expect(await handler.execute(new PurgeQueue(1, ['autorecache', 'high', 'autorecache']))).toEqual({ entries_purged: 3 });
    expect(await totals(1)).toEqual({ high: 0, normal: 2, autorecache: 0 });
    expect((await purges())[0].payload).toEqual({ hostId: 1, priorities: ['high', 'autorecache'] });
  });

  it('given a host with nothing queued at the priority, records the purge and answers 0', async () => {
    expect(await handler.execute(new PurgeQueue(2, ['normal']))).toEqual({ entries_purged: 0 });
    expect(await purges()).toHaveLength(1);
  });

  it('refuses an unknown host with VALIDATION_FAILED naming host_id, and records nothing', async () => {
    await expect(handler.execute(new PurgeQueue(9, undefined))).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'host_id', message: 'host_id 9: host not found' });
    expect(await purges()).toEqual([]);
  });

  it('refuses with STORE_UNAVAILABLE, recording nothing, when the queue store cannot be reached', async () => {
    await state.queue.close();
    await expect(handler.execute(new PurgeQueue(1, undefined))).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/nothing was changed/) });
    expect(await purges()).toEqual([]);
  });

  it('refuses with LOG_UNAVAILABLE when the event log refuses the append, and the queue keeps its entries', async () => {
    await state.closeLog();
    await expect(handler.execute(new PurgeQueue(1, undefined))).rejects.toMatchObject({ code: 'LOG_UNAVAILABLE', message: expect.stringMatching(/not acknowledged/) });
    expect(await purges()).toEqual([]);
    expect(await totals(1)).toEqual({ high: 2, normal: 2, autorecache: 1 });
  });
});
