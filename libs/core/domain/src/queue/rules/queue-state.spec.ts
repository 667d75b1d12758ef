import { entry, given, queued, T } from './queue-rules.fixtures';

describe('QueueState', () => {
  it('given entries due at the same time, then they are served in key order, however they were queued or replaced', () => {
    const state = given(
      ...queued(entry('c'), entry('a')),
      ...queued(entry('d'), entry('b', { dimensionId: 2 })),
      { type: 'entry-replaced', entry: entry('a', { entryId: 'e9' }) },
      { type: 'entry-replaced', entry: entry('e', { dueAt: T + 1 }) },
    );
    state.evolve({ type: 'entry-replaced', entry: entry('e') });
    expect(state.firstDue(1, 'normal', T, 10).map((e) => e.key)).toEqual(['1|a', '1|c', '1|d', '1|e', '2|b']);
  });

  it('given entries due at different times, then the earlier is served first whatever its key', () => {
    const state = given(...queued(entry('a', { dueAt: T })), ...queued(entry('b', { dueAt: T - 1 })));
    expect(state.firstDue(1, 'normal', T, 10).map((e) => e.url)).toEqual(['b', 'a']);
  });

  it('given one request’s new entries of several hosts and priorities, then each lands in its own queue', () => {
    const state = given(...queued(entry('b'), entry('a'), entry('c', { priority: 'high' }), entry('d', { hostId: 2 }), entry('e')));
    expect(state.firstDue(1, 'normal', T, 10).map((e) => e.url)).toEqual(['a', 'b', 'e']);
    expect(state.firstDue(1, 'high', T, 10).map((e) => e.url)).toEqual(['c']);
    expect(state.firstDue(2, 'normal', T, 10).map((e) => e.url)).toEqual(['d']);
  });

  it('given a leased entry returned, then it takes its place back', () => {
    const state = given(
      ...queued(entry('a'), entry('b')),
      { type: 'entry-leased', lease: { entry: entry('a'), claimId: 'c1', leaseUntil: T } },
      { type: 'lease-returned', claimId: 'c1', entry: entry('a', { attempt: 1 }) },
    );
    expect(state.firstDue(1, 'normal', T, 10).map((e) => [e.url, e.attempt])).toEqual([['a', 1], ['b', 0]]);
    expect(state.lastServedHost).toBe(1);
  });

  it('given a replaced entry moved to another priority, then it leaves the old one', () => {
    const state = given(...queued(entry('a')), { type: 'entry-replaced', entry: entry('a', { priority: 'high' }) });
    expect(state.counts(T).get(1)).toEqual({ high: { total: 1, due_now: 1 }, normal: { total: 0, due_now: 0 }, autorecache: { total: 0, due_now: 0 } });
  });

  it('given a purge of one priority, then the host keeps the others, and leaves when empty', () => {
    const state = given(...queued(entry('a'), entry('b', { priority: 'high', dueAt: T + 1 })), { type: 'queues-purged', hostId: 1, priorities: ['normal'] });
    expect(state.counts(T).get(1)).toEqual({ high: { total: 1, due_now: 0 }, normal: { total: 0, due_now: 0 }, autorecache: { total: 0, due_now: 0 } });
    state.evolve({ type: 'entry-removed', hostId: 1, key: '1|b' });
    expect([...state.hostsWithEntries()]).toEqual([]);
  });
});
