import { queueEntryKey } from '@bpc/domain';
import { assertClaimRequest, assertEnqueueRequest, parseQueueEntryKey } from './queue-call-checks';

describe('queue call checks', () => {
  it('parses entry keys back, keeping separators inside the URL', () => {
    const url = 'https://example.com/a|b?c=1|2';
    expect(parseQueueEntryKey(queueEntryKey(7, url))).toEqual({ dimensionId: 7, url });
    expect(() => parseQueueEntryKey('no-separator')).toThrow(/malformed/);
  });

  it('accepts well-formed requests and names what is wrong in the others', () => {
    const ok = { hostId: 1, priority: 'high' as const, dueAt: 1, entryId: 'e', items: [{ url: 'u', dimensionId: 1, mode: 'render' as const }] };
    expect(() => assertEnqueueRequest(ok)).not.toThrow();
    expect(() => assertEnqueueRequest({ ...ok, entryId: '' })).toThrow(/entryId/);
    expect(() => assertEnqueueRequest({ ...ok, items: [{ url: '', dimensionId: 1 }] })).toThrow(/url/);
    expect(() => assertEnqueueRequest({ ...ok, items: [{ url: 'u', dimensionId: Number.NaN }] })).toThrow(/dimensionId/);
    expect(() => assertEnqueueRequest({ ...ok, dueAt: Number.POSITIVE_INFINITY })).toThrow(/dueAt/);
    expect(() => assertClaimRequest({ now: 1, limit: 0, leaseMs: 1 })).not.toThrow();
    expect(() => assertClaimRequest({ now: 1, limit: 1.5, leaseMs: 1 })).toThrow(/limit/);
    expect(() => assertClaimRequest({ now: 1, limit: 1, leaseMs: 0 })).toThrow(/leaseMs/);
  });
});
