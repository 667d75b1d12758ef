// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { DiscoveryEntry, QueryBody } from '../api/types';
import { envelope, renderPage, serveApi, type Call } from '../test-support';
import AlertsPage from './alerts';
import RendersPage from './renders';

// uPlot draws on a canvas jsdom has not got: the charts' inputs are what is checked here.
vi.mock('../components/time-chart', () => ({
  TimeChart: ({ title, series }: { title: string; series: { key: string; points: unknown[] }[] }) => (
    <figure data-testid="chart">
      {title}: {series.map((s) => `${s.key}(${s.points.length})`).join(' ')}
    </figure>
  ),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const col = (key: string, title: string, dataType = 'string') => ({ key, title, group: 'Render', dataType, sortable: true, modes: ['renders'] });
const discovery: DiscoveryEntry = {
  key: 'renders',
  features: { comparePeriod: false, comparisonCategories: false },
  modes: [
    {
      key: 'renders',
      default: true,
      columns: [col('page', 'Page'), col('rendered_at', 'Rendered (UTC)', 'datetime'), col('outcome', 'Outcome'), col('reason', 'Reason'), col('render_ms', 'Render time (ms)', 'integer'), col('receipt', 'Recache receipt')],
      filters: [{ field: 'trigger', title: 'Trigger', type: 'enum', required: false, modes: ['renders', 'reasons'], operators: ['eq', 'ne'], valuelessOperators: [], options: [{ value: 'sitemap', label: 'Sitemap' }, { value: 'edge_miss', label: 'Edge miss' }] }],
      defaults: { columns: ['page', 'rendered_at', 'outcome', 'reason', 'render_ms'], sort: 'rendered_at', sortDir: 'desc', period: '7d' },
    },
    { key: 'reasons', default: false, columns: [], filters: [], defaults: { columns: [], sort: 'renders', sortDir: 'desc', period: '7d' } },
  ],
  periods: { presets: ['24h', '7d', '30d'], customFormat: 'YYYY-MM-DD,YYYY-MM-DD', timeBounds: true, maxRangeDays: 365 },
  limits: { perPageMax: 500, perPageDefault: 100, exportRowCap: 1_000_000 },
};
const window = { start: '2026-11-20T00:00:00.000Z', end: '2026-11-27T00:00:00.000Z' };
const meta = (body: QueryBody, total: number) => ({ explorerKey: 'renders', mode: body.mode, page: body.page ?? 1, perPage: body.perPage ?? 100, total, totalPages: Math.ceil(total / (body.perPage ?? 100)), columns: body.columns, sort: body.sort ?? 'rendered_at', sortDir: body.sortDir ?? 'desc', period: body.period ?? '7d', window });

function rendersApi(onQuery?: (body: QueryBody) => ReturnType<typeof envelope> | undefined, other?: (call: Call) => { status?: number; body: unknown } | undefined) {
  return serveApi('readonly', (call: Call) => {
    const answer = other?.(call);
    if (answer) return answer;
    if (call.path === '/api/websites/demo/renders') return { body: discovery };
    if (call.path === '/api/websites/demo/renders/timeseries')
      return { body: { meta: { period: '7d', window, interval: 'hour' }, points: [{ t: window.start, renders: 3, stored: 1, kept: 1, failed: 1, renderMsP50: 900, renderMsP95: 2000 }] } };
    if (call.path === '/api/websites/demo/renders/query') {
      const body = call.body as QueryBody;
      const refused = onQuery?.(body);
      if (refused) return refused;
      if (body.mode === 'reasons')
        return {
          body: {
            data: [
              { _rowId: 'a', outcome: 'kept_blank', reason: 'blank: 0 bytes of text', renders: 4, pages: 2, avg_render_ms: 1200, last_rendered_at: window.end },
              { _rowId: 'b', outcome: 'gave_up', reason: 'origin answered 503', renders: 2, pages: 1, avg_render_ms: 300, last_rendered_at: window.end },
            ],
            meta: meta(body, 2),
          },
        };
      return {
        body: {
          data: [
            { _rowId: 'r1', page: 'https://www.example.com/x', rendered_at: window.end, outcome: 'gave_up', reason: 'origin answered 503', render_ms: 300, receipt: '0193b0f4-6d2a-7c1e-9f3b-2a4c6e8d0f12' },
            { _rowId: 'r2', page: 'https://www.example.com/y', rendered_at: window.start, outcome: 'stored', reason: '', render_ms: 900, receipt: '' },
          ],
          meta: meta(body, 2),
        },
      };
    }
    return undefined;
  });
}

describe('RendersPage', () => {
  it('lists failures first, grouped by reason; a reason drills down to its single renders; the charts get both series', async () => {
    const calls = rendersApi();
    const router = renderPage([{ path: '/w/:website/renders', element: <RendersPage /> }], '/w/demo/renders');
    const rows = await screen.findAllByTestId('reason-row');
    expect(rows.map((r) => r.textContent)).toEqual([expect.stringContaining('failed, gave up'), expect.stringContaining('kept the old page: blank render')]);
    const reasonsCall = calls.find((c) => (c.body as QueryBody | undefined)?.mode === 'reasons')!;
    expect((reasonsCall.body as QueryBody).filters).toEqual([{ field: 'outcome_class', op: 'ne', val: 'stored' }]);
    expect((await screen.findAllByTestId('chart')).map((c) => c.textContent)).toEqual([
      'Renders by outcome (failed, kept the old page, stored): failed(1) kept old page(1) stored(1)',
      'Render time, p50 and p95: p50(1) p95(1)',
    ]);
    const single = await screen.findByRole('table', { name: 'Single renders' });
    // A page leads to what is cached for it now.
    expect(within(single).getByRole('link', { name: 'https://www.example.com/x' }).getAttribute('href')).toBe('/w/demo/cache?lookup=https%3A%2F%2Fwww.example.com%2Fx');
    expect(within(single).getByRole('link', { name: 'SEO health of https://www.example.com/x' }).getAttribute('href')).toBe('/w/demo/seo/page?url=https%3A%2F%2Fwww.example.com%2Fx');
    // A render of a recache's entry leads to its receipt, followed on the Cache page; a render of none shows none.
    expect(within(single).getAllByRole('link', { name: /^Recache receipt / }).map((a) => a.getAttribute('href'))).toEqual(['/w/demo/cache?receipt=0193b0f4-6d2a-7c1e-9f3b-2a4c6e8d0f12']);
    expect((calls.find((c) => (c.body as QueryBody | undefined)?.mode === 'renders')!.body as QueryBody).columns).toContain('receipt');

    fireEvent.click(within(rows[0]!).getByRole('button', { name: /Show renders: failed, gave up, origin answered 503/ }));
    await waitFor(() => expect(router.state.location.search).toBe('?outcome=gave_up&reason=origin+answered+503'));
    await waitFor(() =>
      expect(calls.some((c) => JSON.stringify((c.body as QueryBody | undefined)?.filters) === JSON.stringify([{ field: 'outcome', op: 'eq', val: 'gave_up' }, { field: 'reason', op: 'equals', val: 'origin answered 503' }]))).toBe(true),
    );
    expect(await screen.findByText('Show all renders')).toBeTruthy();

    fireEvent.change(screen.getByLabelText('Trigger'), { target: { value: 'sitemap' } });
    await waitFor(() => expect(router.state.location.search).toContain('trigger=sitemap'));
    fireEvent.click(screen.getByRole('button', { name: /^Render time \(ms\)/ }));
    await waitFor(() => expect(router.state.location.search).toContain('sort=render_ms&sortDir=desc'));
  });

  it('shows a refusal at the control whose filter it names', async () => {
    rendersApi((body) => (body.filters?.[0]?.field === 'url' ? envelope(400, 'VALIDATION_FAILED', 'filters[0].val is longer than 1000 characters', 'filters[0].val') : undefined));
    renderPage([{ path: '/w/:website/renders', element: <RendersPage /> }], '/w/demo/renders');
    fireEvent.change(await screen.findByLabelText('URL contains'), { target: { value: 'x'.repeat(1001) } });
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }));
    await waitFor(() => expect(screen.getByLabelText('URL contains').getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getAllByText('filters[0].val is longer than 1000 characters').length).toBeGreaterThan(0);
  });

  it('exports the single renders through the shared slot, naming the holder on a 409', async () => {
    const calls = rendersApi(undefined, (call) => {
      if (call.path === '/api/websites/demo/renders/export') return { status: 409, body: { code: 'EXPORT_SLOT_BUSY', message: 'busy', exportId: 7 } };
      if (call.path === '/api/websites/demo/data-explorer/export/7/status') return { body: { exportId: 7, status: 'running', message: 'running', startedFrom: 'api' } };
      return undefined;
    });
    renderPage([{ path: '/w/:website/renders', element: <RendersPage /> }], '/w/demo/renders?class=failed');
    fireEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await screen.findByText(/export #7\s*holds the slot now/);
    await screen.findByText(/Export #7 is running/);
    expect(calls.find((c) => c.path.endsWith('/renders/export'))!.body).toEqual({ mode: 'renders', columns: expect.any(Array), filters: [{ field: 'outcome_class', op: 'eq', val: 'failed' }], filename: 'renders', waitSeconds: 0 });
  });
});

describe('AlertsPage', () => {
  it('lists webhook deliveries with their answers, paged by the URL', async () => {
    const calls = serveApi('readonly', (call) =>
      call.path.startsWith('/api/websites/demo/alerts/deliveries')
        ? {
            body: {
              data: [
                { alertId: 'al-1', type: 'render_failures', attempt: 2, status: 'delivered', httpStatus: 204, error: '', at: '2026-11-27T10:00:00.000Z' },
                { alertId: 'al-1', type: 'render_failures', attempt: 1, status: 'retrying', httpStatus: 502, error: 'receiver answered 502', at: '2026-11-27T09:59:00.000Z' },
                { alertId: 'al-2', type: 'export_finished', attempt: 3, status: 'failed', httpStatus: null, error: 'connect ECONNREFUSED', at: '2026-11-27T09:00:00.000Z' },
              ],
              meta: { page: 1, perPage: 25, total: 60, totalPages: 3 },
            },
          }
        : undefined,
    );
    const router = renderPage([{ path: '/w/:website/alerts', element: <AlertsPage /> }], '/w/demo/alerts');
    const table = await screen.findByRole('table', { name: 'Webhook deliveries' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.querySelectorAll('td')].slice(1).map((td) => td.textContent))).toEqual([
      ['Render failures', '2', 'delivered', '204', '–'],
      ['Render failures', '1', 'retrying', '502', 'receiver answered 502'],
      ['Export finished', '3', 'failed', '–', 'connect ECONNREFUSED'],
    ]);
    // A render-failures alert leads to the failed renders of the day before its delivery.
    expect(within(rows[0]!).getByRole('link', { name: 'Render failures' }).getAttribute('href')).toBe(
      `/w/demo/renders?${new URLSearchParams({ period: '2026-11-26T10:00,2026-11-27T10:01', show: 'failed' }).toString()}`,
    );
    expect(calls[0]!.path).toBe('/api/websites/demo/alerts/deliveries?page=1&perPage=25');
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/websites/demo/alerts/deliveries?page=2&perPage=25')).toBe(true));
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'failed' } });
    await waitFor(() => expect(router.state.location.search).toBe('?status=failed'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/websites/demo/alerts/deliveries?page=1&perPage=25&status=failed')).toBe(true));
  });
});
