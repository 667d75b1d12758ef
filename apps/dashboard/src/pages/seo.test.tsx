// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { SeoInsightsResult } from '../api/types';
import { parseExplorerState } from '../lib/explorer-state';
import { serveApi, renderPage, type Call } from '../test-support';
import SeoHealthPage from './seo';
import SeoPageView from './seo-page';

// uPlot draws on a canvas jsdom has not got: the chart's input is what is checked here.
vi.mock('../components/time-chart', () => ({
  TimeChart: ({ title, series }: { title: string; series: { key: string; points: { v: number | null }[] }[] }) => (
    <figure data-testid="chart">
      {title}: {series.map((s) => `${s.key}(${s.points.map((p) => p.v).join(',')})`).join(' ')}
    </figure>
  ),
}));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const window = { start: '2026-12-04T12:00:00.000Z', end: '2026-12-07T12:00:00.000Z' };
const INSIGHTS: SeoInsightsResult = {
  data: {
    issues: [
      { code: 'noindex', severity: 'critical', pages: 2 },
      { code: 'status_4xx', severity: 'critical', pages: 0 },
      { code: 'title_too_long', severity: 'notice', pages: 7 },
      { code: 'thin_content', severity: 'warning', pages: 3 },
    ],
    pagesWithIssues: { critical: 2, warning: 3, notice: 7 },
    pages: 40,
    changes: { critical: 1, warning: 0, notice: 4 },
    changesByDay: [{ t: Date.parse('2026-12-06T00:00:00.000Z'), critical: 1, warning: 0, notice: 4 }],
    pagesWithIssuesByDay: [
      { t: Date.parse('2026-12-04T00:00:00.000Z'), critical: 1, warning: 3, notice: 3 },
      { t: Date.parse('2026-12-05T00:00:00.000Z'), critical: 1, warning: 3, notice: 3 },
      { t: Date.parse('2026-12-06T00:00:00.000Z'), critical: 2, warning: 3, notice: 7 },
      { t: Date.parse('2026-12-07T00:00:00.000Z'), critical: 2, warning: 3, notice: 7 },
    ],
    issuesByDay: [],
  },
  meta: { period: '7d', window },
};
const DISCOVERY = {
  limits: { perPageMax: 500, perPageDefault: 100, exportRowCap: 1000000 },
  explorers: [
    {
      key: 'pages',
      modes: [
        {
          key: 'pages',
          filters: [
            {
              field: 'issue',
              options: [
                { value: 'noindex', label: 'noindex (critical): Bots are told not to index this page, so it cannot appear in search results.' },
                { value: 'thin_content', label: 'thin_content (warning): The page has little visible text: bots may judge it of little value.' },
                { value: 'title_too_long', label: 'title_too_long (notice): The title is longer than search results show: its end is cut off.' },
              ],
            },
          ],
        },
      ],
      limits: { perPageMax: 500, perPageDefault: 100, exportRowCap: 1000000 },
    },
  ],
};
const PRICING = 'https://www.example.com/pricing';
const pageMeta = (total: number) => ({ page: 1, perPage: 50, total, totalPages: 1 });
const CHANGE = { _rowId: 'c1', url: PRICING, dimension: 'desktop', changed_at: '2026-12-06T10:00:00.000Z', field: 'noindex', before: 'false', after: 'true', severity: 'critical' };

function serve() {
  return serveApi('readonly', (call: Call) => {
    const body = call.body as { columns?: string[]; filters?: { field: string; val: string }[] } | undefined;
    if (call.path === '/api/websites/demo/insights/seo') return { body: INSIGHTS };
    if (call.path === '/api/websites/demo/data-explorer') return { body: DISCOVERY };
    if (call.path === '/api/websites/demo/data-explorer/page_changes/query') return { body: { data: [CHANGE], meta: pageMeta(1) } };
    if (call.path === '/api/websites/demo/data-explorer/pages/query' && body?.filters?.length) {
      const row = { _rowId: 'p1', url: PRICING, dimension: 'desktop', title: 'Pricing — Example', noindex: 'robots', status_code: 200, word_count: 120, issues: 'noindex,thin_content', critical_issues: 1, urgent: 1, requests: 31, clicks: 5, impressions: 90, last_rendered_at: '2026-12-06T10:00:00.000Z', last_googlebot_at: '2026-12-07T09:00:00.000Z' };
      return { body: { data: [row], meta: pageMeta(1) } };
    }
    if (call.path === '/api/websites/demo/data-explorer/pages/query') {
      return { body: { data: [{ _rowId: 'a', url: PRICING, issues: 'noindex,thin_content' }, { _rowId: 'b', url: 'https://www.example.com/blog/x', issues: 'title_too_long,thin_content' }], meta: pageMeta(2) } };
    }
    return undefined;
  });
}

const hrefState = (link: HTMLElement) => parseExplorerState(new URLSearchParams(link.getAttribute('href')!.split('?')[1]));
const routes = [
  { path: '/w/:website/seo', element: <SeoHealthPage /> },
  { path: '/w/:website/seo/page', element: <SeoPageView /> },
];

describe('SEO health page', () => {
  it('shows pages with issues by severity, the issue list with explanations, examples and explorer links, and the changes feed critical first', async () => {
    const calls = serve();
    renderPage(routes, '/w/demo/seo?period=7d');
    expect(await screen.findByText('2 pages')).toBeTruthy();
    expect(calls.filter((c) => c.path.endsWith('/insights/seo')).map((c) => c.body)).toEqual([{ period: '7d' }]);
    // Pages with issues as of each day's end, as the API answers them (every day); then the changes, every UTC day the window touches, a zero where nothing changed.
    expect(screen.getAllByTestId('chart').map((chart) => chart.textContent)).toEqual([
      "Pages with issues at each day's end, by severity: critical(1,1,2,2) warning(3,3,3,3) notice(3,3,7,7)",
      'Changes per day, by severity: critical(0,0,1,0) warning(0,0,0,0) notice(0,0,4,0)',
    ]);

    const issues = await screen.findByRole('table', { name: /Issues pages have now/ });
    const rows = within(issues).getAllByRole('row').slice(1);
    // Most severe first, then by pages; an issue no page has is named below the table.
    expect(rows.map((row) => within(row).getByRole('rowheader').querySelector('code')!.textContent)).toEqual(['noindex', 'thin_content', 'title_too_long']);
    expect(within(rows[0]!).getByRole('rowheader').textContent).toContain('Bots are told not to index this page');
    expect(screen.getByText('No page has status_4xx.')).toBeTruthy();
    const pagesLink = within(rows[0]!).getByRole('link', { name: '2 pages with noindex in the explorer' });
    expect(hrefState(pagesLink)).toMatchObject({ explorer: 'pages', period: '7d', filters: [{ field: 'issue', op: 'eq', val: 'noindex' }] });
    const example = await within(rows[2]!).findByRole('link', { name: '/blog/x' });
    expect(example.getAttribute('href')).toBe(`/w/demo/seo/page?url=${encodeURIComponent('https://www.example.com/blog/x')}&period=7d`);

    const feed = await screen.findByRole('table', { name: /Changes in the period, most severe first/ });
    expect(within(feed).getAllByRole('row')[1]!.textContent).toContain('false → true');
    const feedQuery = () => calls.filter((c) => c.path.endsWith('/page_changes/query')).map((c) => c.body).at(-1);
    expect(feedQuery()).toMatchObject({ period: '7d', sort: 'severity', sortDir: 'desc', filters: [] });
    fireEvent.change(screen.getByLabelText('Severity'), { target: { value: 'critical' } });
    await screen.findByRole('link', { name: 'These changes in the Data Explorer' });
    await vi.waitFor(() => expect(feedQuery()).toMatchObject({ filters: [{ field: 'severity', op: 'eq', val: 'critical' }] }));
  });

  it("shows one page's facts now against before their latest change, its issues, bot hits and clicks, and its change history", async () => {
    const calls = serve();
    renderPage(routes, `/w/demo/seo/page?url=${encodeURIComponent(PRICING)}&period=7d`);
    const facts = await screen.findByRole('table', { name: /Facts now/ });
    const onUrl = [{ field: 'url', op: 'equals', val: PRICING }];
    expect(calls.filter((c) => c.path.endsWith('/pages/query')).map((c) => c.body)).toEqual([expect.objectContaining({ period: '7d', filters: onUrl })]);
    expect(calls.filter((c) => c.path.endsWith('/page_changes/query')).map((c) => c.body)).toEqual([expect.objectContaining({ period: '7d', filters: onUrl, sort: 'changed_at', sortDir: 'desc' })]);
    const noindex = within(facts).getByRole('rowheader', { name: 'Indexing' }).closest('tr')!;
    expect([...noindex.querySelectorAll('td')].slice(0, 2).map((td) => td.textContent)).toEqual(['noindex (robots)', 'indexable']);
    const title = within(facts).getByRole('rowheader', { name: 'Title' }).closest('tr')!;
    expect(title.querySelectorAll('td')[1]!.textContent).toBe('unchanged');
    expect(screen.getByText('Urgent: this page says noindex, yet bots requested it in the period.')).toBeTruthy();
    expect(screen.getByText('31')).toBeTruthy();
    expect(screen.getByText(/Bots are told not to index this page/)).toBeTruthy();
    const history = screen.getByRole('table', { name: /Changes of https:\/\/www.example.com\/pricing/ });
    expect(within(history).getAllByRole('row')).toHaveLength(2);
    expect(screen.getByRole('link', { name: 'What is cached' }).getAttribute('href')).toBe(`/w/demo/cache?lookup=${encodeURIComponent(PRICING)}`);
  });
});
