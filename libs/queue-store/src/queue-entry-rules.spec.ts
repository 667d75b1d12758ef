import { queueEntryKey } from '@bpc/domain';
import {
  assertClaimRequest,
  assertEnqueueRequest,
  distinctItems,
  distinctPriorities,
  mergeEntry,
  parseQueueEntryKey,
  rotateAfter,
  roundRobin,
} from './queue-entry-rules';

describe('queue entry rules', () => {
  it('parses entry keys back, keeping separators inside the URL', () => {
    const url = 'https://example.com/a|b?c=1|2';
    expect(parseQueueEntryKey(queueEntryKey(7, url))).toEqual({ dimensionId: 7, url });
    expect(() => parseQueueEntryKey('no-separator')).toThrow(/malformed/);
  });

  it('keeps one item per URL + dimension, a later explicit mode winning', () => {
    const distinct = distinctItems([
      { url: 'u', dimensionId: 1, mode: 'bypass' },
      { url: 'u', dimensionId: 2 },
      { url: 'u', dimensionId: 1 },
      { url: 'u', dimensionId: 2, mode: 'render' },
    ]);
    expect([...distinct.values()]).toEqual([
      { url: 'u', dimensionId: 1, mode: 'bypass' },
      { url: 'u', dimensionId: 2, mode: 'render' },
    ]);
  });

  it('lists each priority once, in drain order', () => {
    expect(distinctPriorities(['autorecache', 'high', 'high'])).toEqual(['high', 'autorecache']);
    expect(distinctPriorities([])).toEqual([]);
  });

  it('merges to the higher priority, the earlier due time and the newer explicit mode', () => {
    expect(mergeEntry({ priority: 'normal', dueAt: 10, mode: 'bypass' }, { priority: 'high', dueAt: 50 })).toEqual({
      priority: 'high',
      dueAt: 10,
      mode: 'bypass',
    });
    expect(mergeEntry({ priority: 'high', dueAt: 50 }, { priority: 'autorecache', dueAt: 10, mode: 'render' })).toEqual({
      priority: 'high',
      dueAt: 10,
      mode: 'render',
    });
  });

  it('rotates hosts to start after the one served last', () => {
    expect(rotateAfter([1, 2, 3], undefined)).toEqual([1, 2, 3]);
    expect(rotateAfter([1, 2, 3], 1)).toEqual([2, 3, 1]);
    expect(rotateAfter([1, 2, 3], 3)).toEqual([1, 2, 3]);
    expect(rotateAfter([1, 5, 9], 6)).toEqual([9, 1, 5]);
  });

  it('takes one item per list per round', () => {
    const picked = roundRobin([['a1', 'a2', 'a3'], ['b1'], ['c1', 'c2']], 5).map((p) => p.item);
    expect(picked).toEqual(['a1', 'b1', 'c1', 'a2', 'c2']);
    expect(roundRobin([['a1'], []], 5).map((p) => p.item)).toEqual(['a1']);
    expect(roundRobin([['a1']], 0)).toEqual([]);
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
