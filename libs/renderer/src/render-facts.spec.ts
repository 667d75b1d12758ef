import type { RefreshOutcome } from './page-refresher.port';
import { renderFactOf } from './render-facts';

const timedOut: RefreshOutcome = { kind: 'failed', reason: 'timed out: the page kept loading', durationMs: 60_000, mode: 'render', timedOut: true, entryKept: true };

describe('renderFactOf: a refresh as one row of the render history', () => {
  it('maps a stored page and each rule that kept the old entry', () => {
    expect(renderFactOf({ kind: 'stored', cacheKind: 'bypass', statusCode: 404, bytes: 120, durationMs: 30 }, 'retry', undefined)).toEqual({
      mode: 'bypass',
      outcome: 'stored',
      reason: '',
      statusCode: 404,
      renderMs: 30,
      bytes: 120,
    });
    const kept = (reason: 'render-wins' | 'blank' | 'soft-404' | 'smaller') =>
      renderFactOf({ kind: 'kept', reason, detail: `detail of ${reason}`, mode: 'render', statusCode: 200, bytes: 10, durationMs: 5 }, 'give-up', undefined);
    expect([kept('render-wins'), kept('blank'), kept('soft-404'), kept('smaller')].map((f) => f.outcome)).toEqual(['kept_fresher', 'kept_blank', 'kept_soft_404', 'kept_smaller']);
    expect(kept('smaller')).toMatchObject({ reason: 'detail of smaller', statusCode: 200, bytes: 10, renderMs: 5 });
  });

  it('reports a last timeout that left the entry in place as kept_timeout, an earlier one as retry_scheduled', () => {
    expect(renderFactOf(timedOut, 'retry', undefined)).toMatchObject({ outcome: 'retry_scheduled', reason: 'timed out: the page kept loading', statusCode: 0, bytes: 0 });
    expect(renderFactOf(timedOut, 'give-up', undefined).outcome).toBe('kept_timeout');
    expect(renderFactOf(timedOut, 'edge', undefined).outcome).toBe('kept_timeout');
  });

  it('gives up (scheduler) or fails (edge) otherwise: no entry, or not a timeout', () => {
    expect(renderFactOf({ ...timedOut, entryKept: false }, 'give-up', undefined).outcome).toBe('gave_up');
    expect(renderFactOf({ ...timedOut, timedOut: false, reason: 'origin answered 503' }, 'give-up', undefined).outcome).toBe('gave_up');
    expect(renderFactOf({ ...timedOut, entryKept: false }, 'edge', undefined).outcome).toBe('failed');
  });

  it('takes the job mode when the refresh could not resolve one, and the unstored page’s status and size', () => {
    expect(renderFactOf({ kind: 'failed', reason: 'unknown host 9', durationMs: 0 }, 'edge', 'bypass')).toMatchObject({ mode: 'bypass', outcome: 'failed' });
    expect(renderFactOf({ kind: 'failed', reason: 'unknown host 9', durationMs: 0 }, 'edge', undefined).mode).toBe('render');
    const unstored: RefreshOutcome = { kind: 'failed', reason: 'the page could not be stored: ENOSPC', durationMs: 9, mode: 'render', unstored: { cacheKind: 'render', page: { statusCode: 200, headers: {}, body: Buffer.alloc(42) } } };
    expect(renderFactOf(unstored, 'edge', undefined)).toEqual({ mode: 'render', outcome: 'failed', reason: 'the page could not be stored (cache store error)', statusCode: 200, renderMs: 9, bytes: 42 });
  });
});
