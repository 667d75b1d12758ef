import { decideClaim, decideLeaseExpiry, rotateAfter, roundRobin } from './decide-claim';
import { claimIds, entry, given, queued, T } from './queue-rules.fixtures';

describe('claim decisions', () => {
  const claim = (limit: number, now = T) => ({ now, limit, leaseMs: 1_000 });
  const urls = (decision: { result: { url: string }[] }) => decision.result.map((c) => c.url);

  it('rotates hosts to start after the one served last', () => {
    expect(rotateAfter([1, 2, 3], undefined)).toEqual([1, 2, 3]);
    expect(rotateAfter([1, 2, 3], 1)).toEqual([2, 3, 1]);
    expect(rotateAfter([1, 2, 3], 3)).toEqual([1, 2, 3]);
    expect(rotateAfter([1, 5, 9], 6)).toEqual([9, 1, 5]);
  });

  it('takes one item per list per round', () => {
    expect(roundRobin([['a1', 'a2', 'a3'], ['b1'], ['c1', 'c2']], 5)).toEqual(['a1', 'b1', 'c1', 'a2', 'c2']);
    expect(roundRobin([['a1'], []], 5)).toEqual(['a1']);
    expect(roundRobin([['a1']], 0)).toEqual([]);
  });

  it('given high and normal entries of two hosts, when claiming, then high goes first and hosts alternate', () => {
    const view = given(
      ...queued(entry('a1'), entry('a2'), entry('a3', { priority: 'high' }), entry('b1', { hostId: 2 }), entry('b2', { hostId: 2, dueAt: T + 1 })),
    );
    const decision = decideClaim(view, claim(10), claimIds());
    expect(urls(decision)).toEqual(['a3', 'a1', 'b1', 'a2']);
    expect(decision.result[0]).toEqual({ hostId: 1, url: 'a3', dimensionId: 1, priority: 'high', entryId: 'e1', attempt: 0, claimId: 'c1', leaseUntil: T + 1_000 });
    expect(decision.events.map((e) => e.type)).toEqual(['entry-leased', 'entry-leased', 'entry-leased', 'entry-leased']);
  });

  it('given host 1 served last, when claiming one entry, then host 2 is served', () => {
    const view = given(...queued(entry('a1'), entry('a2'), entry('b1', { hostId: 2 })), {
      type: 'entry-leased',
      lease: { entry: entry('a1'), claimId: 'old', leaseUntil: T + 9_000 },
    });
    expect(urls(decideClaim(view, claim(1), claimIds()))).toEqual(['b1']);
  });

  it('given a paused host, when claiming before and at its deadline, then it is skipped, then drained', () => {
    const view = given(...queued(entry('a1')), { type: 'host-paused', hostId: 1, expiresAt: T + 1 });
    expect(urls(decideClaim(view, claim(5), claimIds()))).toEqual([]);
    expect(urls(decideClaim(view, claim(5, T + 1), claimIds()))).toEqual(['a1']);
  });

  it('given two expired leases of one key, when their time is up, then the first returns and the second merges into it', () => {
    const first = entry('a', { entryId: 'e1', priority: 'normal', dueAt: T - 10 });
    const second = entry('a', { entryId: 'e2', priority: 'high', dueAt: T });
    const view = given(
      ...queued(first),
      { type: 'entry-leased', lease: { entry: first, claimId: 'c1', leaseUntil: T } },
      ...queued(second),
      { type: 'entry-leased', lease: { entry: second, claimId: 'c2', leaseUntil: T } },
    );
    expect(decideLeaseExpiry(view, T - 1)).toEqual({ events: [], result: 0 });
    expect(decideLeaseExpiry(view, T)).toEqual({
      result: 2,
      events: [
        { type: 'lease-returned', claimId: 'c1', entry: first },
        { type: 'lease-ended', claimId: 'c2' },
        { type: 'entry-replaced', entry: { ...first, priority: 'high' } },
      ],
    });
  });
});
