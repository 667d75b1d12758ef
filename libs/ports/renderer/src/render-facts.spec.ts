import { factsWith } from '../../../core/domain/src/pages/page-facts.fixtures';
import type { RefreshOutcome } from './page-refresher.port';
import { customerFailureReason, INTERNAL_FAILURE_REASON, REFUSED_REASON, renderFactOf } from './render-facts';

const timedOut: RefreshOutcome = { kind: 'failed', reason: 'timed out: the page kept loading', durationMs: 60_000, mode: 'render', timedOut: true, entryKept: true };

describe('renderFactOf: a refresh as one row of the render history', () => {
  it('maps a stored page and each rule that kept the old entry', () => {
    const facts = factsWith({ statusCode: 404, bytes: 120 });
    expect(renderFactOf({ kind: 'stored', cacheKind: 'bypass', statusCode: 404, bytes: 120, durationMs: 30, facts }, 'retry', undefined)).toEqual({
      mode: 'bypass',
      outcome: 'stored',
      reason: '',
      statusCode: 404,
      renderMs: 30,
      bytes: 120,
      facts,
    });
    const kept = (reason: 'render-wins' | 'blank' | 'soft-404' | 'smaller') =>
      renderFactOf({ kind: 'kept', reason, detail: `detail of ${reason}`, mode: 'render', statusCode: 200, bytes: 10, durationMs: 5 }, 'give-up', undefined);
    expect([kept('render-wins'), kept('blank'), kept('soft-404'), kept('smaller')].map((f) => f.outcome)).toEqual(['kept_fresher', 'kept_blank', 'kept_soft_404', 'kept_smaller']);
    expect(kept('smaller')).toMatchObject({ reason: 'detail of smaller', statusCode: 200, bytes: 10, renderMs: 5 });
    expect(kept('smaller')).not.toHaveProperty('facts');
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

  it('shows customers no internal address, origin URL or infrastructure error in a failure reason (operators keep them in logs and queue events)', () => {
    const shown = (reason: string) => renderFactOf({ ...timedOut, timedOut: false, reason }, 'give-up', undefined).reason;
    expect(shown('refused: www.example.com resolves to an internal address (10.1.2.3)')).toBe(REFUSED_REASON);
    expect(shown('refused: [::ffff:a01:203]:8080 is not allowed')).toBe(REFUSED_REASON);
    expect(shown('net::ERR_CONNECTION_REFUSED at http://10.20.30.40:8080/pricing')).toBe('the page could not be loaded (ERR_CONNECTION_REFUSED)');
    expect(shown('connect ECONNREFUSED 10.0.0.7:6379')).toBe('the origin could not be reached (ECONNREFUSED)');
    expect(shown('fetch failed')).toBe('the origin could not be reached');
    expect(shown('READONLY You can\'t write against a read only replica.')).toBe(INTERNAL_FAILURE_REASON);
    expect(shown('refresh failed: Connection is closed.')).toBe(INTERNAL_FAILURE_REASON);
    expect(shown('Protocol error (Target.createTarget): Target closed')).toBe(INTERNAL_FAILURE_REASON);
    expect(shown('timed out: the page kept loading (2 requests open, e.g. http://10.0.0.5:8080/app.js)')).toBe('timed out: the page kept loading (2 requests open)');
    expect(shown('the page crashed its tab (Page crashed! at /opt/chrome/renderer.cc:120)')).toBe('the page crashed its tab');
    for (const own of ['origin answered 503', 'timed out: the page kept loading', 'blank page: no visible text', 'navigated away (to http://other.test)', 'empty body (status 200)', 'the page signalled 404']) {
      expect(customerFailureReason(own)).toBe(own);
    }
  });
});
