import { emptyQueueModel, evolveQueue, modelCounts, queueView } from './queue-model';
import { entry, given, queued, T } from './queue-rules.fixtures';

describe('evolveQueue', () => {
  it('leaves the given state as it was', () => {
    const before = emptyQueueModel();
    const after = evolveQueue(before, queued(entry('a'))[0]);
    expect(queueView(before).queued(1, '1|a')).toBeUndefined();
    expect(queueView(after).queued(1, '1|a')).toEqual(entry('a'));
  });

  it('given entries due at the same time, then they are served first queued, first served, a replaced one keeping its place', () => {
    const { state } = given(...queued(entry('a'), entry('b'), entry('c')), { type: 'entry-replaced', entry: entry('a', { entryId: 'e9' }) });
    expect(queueView(state).firstDue(1, 'normal', T, 10).map((e) => e.url)).toEqual(['a', 'b', 'c']);
  });

  it('given a leased entry returned, then it takes its old place back', () => {
    const { state } = given(
      ...queued(entry('a'), entry('b')),
      { type: 'entry-leased', lease: { entry: entry('a'), claimId: 'c1', leaseUntil: T } },
      { type: 'lease-returned', claimId: 'c1', entry: entry('a', { attempt: 1 }) },
    );
    expect(queueView(state).firstDue(1, 'normal', T, 10).map((e) => [e.url, e.attempt])).toEqual([['a', 1], ['b', 0]]);
    expect(queueView(state).lastServedHost).toBe(1);
  });

  it('given a purge of one priority, then the host keeps the others, and leaves when empty', () => {
    const { state } = given(...queued(entry('a'), entry('b', { priority: 'high', dueAt: T + 1 })), { type: 'queues-purged', hostId: 1, priorities: ['normal'] });
    expect(modelCounts(state, 1, T)).toEqual({ high: { total: 1, due_now: 0 }, normal: { total: 0, due_now: 0 }, autorecache: { total: 0, due_now: 0 } });
    const emptied = evolveQueue(state, { type: 'entry-removed', hostId: 1, key: '1|b' });
    expect([...queueView(emptied).hostsWithEntries()]).toEqual([]);
  });
});
