import { describe, expect, it } from 'vitest';
import type { Row } from '../api/types';
import { drainEstimateText } from './drain';
import { receiptDone, receiptPollMs, settledCount, totalsSentence } from './receipts';
import {
  nextRendersSort,
  orderReasons,
  outcomeClassOf,
  parseRendersState,
  reasonsBody,
  rendersBody,
  rendersErrorControl,
  rendersExportBody,
  rendersSearchParams,
  rendersSeries,
  rendersTimeseriesBody,
} from './renders-state';
import { matcherBody, matcherText } from './url-matcher';

describe('renders state', () => {
  it('round-trips through the query string, the empty reason included', () => {
    const params = new URLSearchParams('period=24h&trigger=sitemap&url=%2Fblog&show=all&class=failed&outcome=kept_blank&reason=&sort=render_ms&sortDir=asc&page=3&perPage=50');
    const state = parseRendersState(params);
    expect(state).toEqual({
      period: '24h',
      trigger: 'sitemap',
      url: '/blog',
      show: 'all',
      outcomeClass: 'failed',
      outcome: 'kept_blank',
      reason: '',
      sort: 'render_ms',
      sortDir: 'asc',
      page: 3,
      perPage: 50,
    });
    expect(parseRendersState(rendersSearchParams(state))).toEqual(state);
    expect(rendersSearchParams({ show: 'problems' }).toString()).toBe('');
    expect(parseRendersState(new URLSearchParams('show=odd&class=nope&page=-1'))).toMatchObject({ show: 'problems', outcomeClass: undefined, page: undefined });
  });

  it('asks for failed and kept reasons first, single renders with their filters, and exports the same question', () => {
    const state = parseRendersState(new URLSearchParams('period=7d&trigger=edge_miss&url=shop'));
    expect(reasonsBody(state)).toEqual({
      mode: 'reasons',
      period: '7d',
      columns: ['outcome', 'reason', 'renders', 'pages', 'avg_render_ms', 'last_rendered_at'],
      filters: [
        { field: 'trigger', op: 'eq', val: 'edge_miss' },
        { field: 'url', op: 'contains', val: 'shop' },
        { field: 'outcome_class', op: 'ne', val: 'stored' },
      ],
      sort: 'renders',
      sortDir: 'desc',
      perPage: 100,
    });
    expect(reasonsBody({ show: 'all' }).filters).toEqual([]);
    expect(reasonsBody({ show: 'all' }, 50).perPage).toBe(50);
    expect(reasonsBody({ show: 'kept' }).filters).toEqual([{ field: 'outcome_class', op: 'eq', val: 'kept' }]);
    const drill = rendersBody({ show: 'problems', outcomeClass: 'failed', outcome: 'gave_up', reason: 'HTTP 503', page: 2, perPage: 25, sort: 'render_ms', sortDir: 'asc' });
    expect(drill).toMatchObject({
      mode: 'renders',
      filters: [
        { field: 'outcome_class', op: 'eq', val: 'failed' },
        { field: 'outcome', op: 'eq', val: 'gave_up' },
        { field: 'reason', op: 'equals', val: 'HTTP 503' },
      ],
      page: 2,
      perPage: 25,
      sort: 'render_ms',
      sortDir: 'asc',
    });
    expect(rendersBody({ show: 'problems', outcome: 'stored', reason: '' }).filters).toEqual([{ field: 'outcome', op: 'eq', val: 'stored' }, { field: 'reason', op: 'empty' }]);
    const exported = rendersExportBody({ show: 'problems', outcomeClass: 'kept', page: 4, perPage: 10 });
    expect(exported).not.toHaveProperty('page');
    expect(exported).not.toHaveProperty('perPage');
    expect(exported).toMatchObject({ mode: 'renders', filters: [{ field: 'outcome_class', op: 'eq', val: 'kept' }], waitSeconds: 0 });
    expect(rendersTimeseriesBody({ show: 'problems' })).toEqual({});
    expect(rendersTimeseriesBody({ show: 'problems', period: '24h', url: 'x' })).toEqual({ period: '24h', filters: [{ field: 'url', op: 'contains', val: 'x' }] });
  });

  it('sends a refusal to the control of the filter it names', () => {
    const body = rendersBody({ show: 'problems', trigger: 'sitemap', url: 'a', outcomeClass: 'failed' });
    expect(rendersErrorControl(body, 'filters[0].val')).toBe('trigger');
    expect(rendersErrorControl(body, 'filters[1]')).toBe('url');
    expect(rendersErrorControl(body, 'filters[2].val')).toBe('outcomeClass');
    expect(rendersErrorControl(reasonsBody({ show: 'failed' }), 'filters[0].val', 'show')).toBe('show');
    expect(rendersErrorControl(body, 'filters[9]')).toBeUndefined();
    expect(rendersErrorControl(body, 'period')).toBe('period');
    expect(rendersErrorControl(body, 'sortDir')).toBe('sort');
    expect(rendersErrorControl(body, 'perPage')).toBe('perPage');
    expect(rendersErrorControl(body, 'columns[1]')).toBeUndefined();
    expect(rendersErrorControl(body, undefined)).toBeUndefined();
  });

  it('orders reasons failures first, then kept, then stored, most renders first', () => {
    const rows = [
      { _rowId: 1, outcome: 'stored', reason: '', renders: 900 },
      { _rowId: 2, outcome: 'kept_blank', reason: 'blank', renders: 3 },
      { _rowId: 3, outcome: 'retry_scheduled', reason: 'HTTP 503', renders: 5 },
      { _rowId: 4, outcome: 'gave_up', reason: 'timeout', renders: 8 },
      { _rowId: 5, outcome: 'kept_smaller', reason: 'smaller', renders: 30 },
    ] as Row[];
    expect(orderReasons(rows).map((r) => r._rowId)).toEqual([4, 3, 5, 2, 1]);
    expect(outcomeClassOf('kept_fresher')).toBe('kept');
    expect(outcomeClassOf('failed')).toBe('failed');
  });

  it('turns timeseries points into chart series, and flips or starts a sort', () => {
    const t = '2026-11-27T10:00:00.000Z';
    const { outcomes, renderTime } = rendersSeries([{ t, renders: 10, stored: 7, kept: 1, failed: 2, renderMsP50: 800, renderMsP95: null }]);
    expect(outcomes.map((s) => [s.key, s.points[0]!.v])).toEqual([
      ['failed', 2],
      ['kept old page', 1],
      ['stored', 7],
    ]);
    expect(renderTime.map((s) => [s.key, s.points[0]!.v])).toEqual([
      ['p50', 800],
      ['p95', null],
    ]);
    expect(rendersSeries([])).toEqual({ outcomes: [], renderTime: [] });
    expect(nextRendersSort('render_ms', { sort: 'render_ms', sortDir: 'desc' })).toEqual({ sort: 'render_ms', sortDir: 'asc', page: undefined });
    expect(nextRendersSort('bytes', { sort: 'render_ms', sortDir: 'asc' })).toEqual({ sort: 'bytes', sortDir: 'desc', page: undefined });
  });
});

describe('drain estimates, receipts and URL matchers', () => {
  it('words a drain estimate as one, and says when there is none', () => {
    expect(drainEstimateText({ seconds: 600, completedPerMinute: 12 }, 120)).toBe('about 10 min');
    expect(drainEstimateText({ seconds: 20, completedPerMinute: 30 }, 10)).toBe('about 1 min');
    expect(drainEstimateText({ seconds: null, completedPerMinute: 0 }, 10)).toBe('unknown');
    expect(drainEstimateText(undefined, 10)).toBe('unknown');
    expect(drainEstimateText({ seconds: 3 * 3600, completedPerMinute: 1 }, 180)).toBe('about 3 h');
    expect(drainEstimateText({ seconds: null, completedPerMinute: 0 }, 0)).toBe('nothing waiting');
  });

  it('says when a receipt is done', () => {
    const totals = { entries: 4, queued: 0, rendering: 1, stored: 2, kept: 1, failed: 0 };
    expect(receiptDone({ done: false, totals })).toBe(false);
    expect(receiptDone({ done: true, totals })).toBe(true);
    expect(receiptDone({ totals: { ...totals, rendering: 0 } } as never)).toBe(true);
    expect(settledCount(totals)).toBe(3);
    expect(receiptPollMs({ data: { done: false, totals } }, false)).toBe(2000);
    expect(receiptPollMs({ data: { done: true, totals } }, false)).toBe(false);
    expect(receiptPollMs({}, false)).toBe(2000);
    // A receipt just started may be 404 for a moment (a read model): asked again while it may be on its way only.
    expect(receiptPollMs({ errorCode: 'RECEIPT_NOT_FOUND' }, true)).toBe(2000);
    expect(receiptPollMs({ errorCode: 'RECEIPT_NOT_FOUND' }, false)).toBe(false);
    expect(receiptPollMs({ data: { done: false, totals }, errorCode: 'UNAVAILABLE' }, true)).toBe(false);
    expect(totalsSentence(totals)).toBe('3 of 4 entries done: 2 stored, 1 kept the old page, 0 failed, 1 rendering, 0 queued.');
  });

  it('makes a prefix or a pattern body, nothing for empty text', () => {
    expect(matcherBody('prefix', '  https://www.example.com/blog/ ')).toEqual({ prefix: 'https://www.example.com/blog/' });
    expect(matcherBody('pattern', '^https://www\\.example\\.com/p[0-9]+$')).toEqual({ pattern: '^https://www\\.example\\.com/p[0-9]+$' });
    expect(matcherBody('prefix', '   ')).toBeUndefined();
    expect(matcherText({ prefix: 'https://a/' })).toBe('URLs starting with https://a/');
    expect(matcherText({ pattern: 'x+' })).toBe('URLs matching x+');
  });
});
