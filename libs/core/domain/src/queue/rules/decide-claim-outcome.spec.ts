import { decideRelease, decideRetry } from './decide-claim-outcome';
import { entry, given, queued, T } from './queue-rules.fixtures';

describe('claim outcome decisions', () => {
  const leased = entry('a', { attempt: 1, dueAt: T - 5 });
  const lease = { type: 'entry-leased' as const, lease: { entry: leased, claimId: 'c1', leaseUntil: T + 1_000 } };

  it('given a lease, when retried later, then its entry returns due then with the attempts added', () => {
    const view = given(...queued(leased), lease);
    expect(decideRetry(view, 'c1', T + 60_000, 1).events).toEqual([{ type: 'lease-returned', claimId: 'c1', entry: { ...leased, dueAt: T + 60_000, attempt: 2 } }]);
  });

  it('given a lease and a newer queued request for its key, when retried, then the queued entry survives with the earlier due time', () => {
    const newer = entry('a', { entryId: 'e2', dueAt: T + 120_000, priority: 'autorecache' });
    const view = given(...queued(leased), lease, ...queued(newer));
    expect(decideRetry(view, 'c1', T + 60_000, 1).events).toEqual([
      { type: 'lease-ended', claimId: 'c1' },
      { type: 'entry-replaced', entry: { ...newer, dueAt: T + 60_000, priority: 'normal' } },
    ]);
  });

  it('given no such lease, when retried or released, then nothing happens', () => {
    const view = given();
    expect(decideRetry(view, 'gone', T, 1).events).toEqual([]);
    expect(decideRelease(view, 'gone').events).toEqual([]);
  });

  it('given a lease, when released, then it ends', () => {
    const view = given(...queued(leased), lease);
    expect(decideRelease(view, 'c1').events).toEqual([{ type: 'lease-ended', claimId: 'c1' }]);
  });
});
