import { afterFailure, claimLeaseMs, internalQueueTarget, retryDelayMs, triggerOf } from './scheduler-policy';

const limits = { maxConcurrent: 5, maxRetries: 3, internalQueueMax: 100, timeoutPerUrlMs: 60_000 };

describe('scheduler policy', () => {
  it('waits 5 s after the first failure and 10 s after the second', () => {
    expect([retryDelayMs(1), retryDelayMs(2), retryDelayMs(3)]).toEqual([5_000, 10_000, 10_000]);
  });

  it('gives up after max_retries attempts', () => {
    expect(afterFailure(1, limits, 0)).toEqual({ retryAt: 5_000 });
    expect(afterFailure(2, limits, 0)).toEqual({ retryAt: 10_000 });
    expect(afterFailure(3, limits, 0)).toEqual({ giveUp: true });
    expect(afterFailure(1, { ...limits, maxRetries: 1 }, 0)).toEqual({ giveUp: true });
  });

  it('pulls about 2 x max_concurrent ahead, bounded by the internal queue size', () => {
    expect(internalQueueTarget(limits)).toBe(10);
    expect(internalQueueTarget({ ...limits, internalQueueMax: 4 })).toBe(4);
  });

  it('holds a claim longer than every attempt and backoff of the entry', () => {
    expect(claimLeaseMs(limits)).toBeGreaterThan(3 * 60_000 + 15_000);
  });

  it('names the render trigger after the claim: its priority, or a sitemap recache', () => {
    expect(triggerOf({ priority: 'high' })).toBe('recache_high');
    expect(triggerOf({ priority: 'normal' })).toBe('recache_normal');
    expect(triggerOf({ priority: 'autorecache' })).toBe('autorecache');
    expect(triggerOf({ priority: 'normal', trigger: 'sitemap' })).toBe('sitemap');
    expect(triggerOf({ priority: 'high', trigger: 'sitemap' })).toBe('sitemap');
  });
});
