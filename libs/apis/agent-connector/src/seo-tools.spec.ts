import type { ApiRequest, PublicApiClient } from './api-client';
import { criticalIssueCosts, getPageChanges, listCriticalPagesByClicks, listPagesTurnedNoindex, pageFilter } from './seo-tools';

const WINDOW = { start: '2026-11-30T12:00:00.000Z', end: '2026-12-07T12:00:00.000Z' };
const recording = (reply: (request: ApiRequest) => { status: number; body: unknown }) => {
  const calls: ApiRequest[] = [];
  const api: PublicApiClient = async (request) => (calls.push(request), reply(request));
  return { api, calls };
};
const summaryOf = (result: { content: { text: string }[] }) => result.content[0].text.split('\n')[0];

describe('list_pages_turned_noindex', () => {
  it('asks page_changes for noindex going from false to true, newest first, and names the URLs', async () => {
    const rows = [
      { url: 'https://www.example.com/a', dimension: 'desktop', changed_at: '2026-12-06T10:00:00.000Z', before: 'false', after: 'true', renders: 1, _rowId: 'x' },
      { url: 'https://www.example.com/a', dimension: 'mobile', changed_at: '2026-12-06T09:00:00.000Z', before: 'false', after: 'true', renders: 1, _rowId: 'y' },
    ];
    const { api, calls } = recording(() => ({ status: 200, body: { data: rows, meta: { total: 2, page: 1, totalPages: 1, window: WINDOW } } }));
    const result = await listPagesTurnedNoindex.run(api, { website: 'demo' });
    expect(calls).toEqual([
      {
        method: 'POST',
        path: '/api/websites/demo/data-explorer/page_changes/query',
        body: expect.objectContaining({ filters: [{ field: 'field', op: 'eq', val: 'noindex' }, { field: 'before', op: 'equals', val: 'false' }, { field: 'after', op: 'equals', val: 'true' }], sort: 'changed_at', sortDir: 'desc', perPage: 50 }),
      },
    ]);
    expect(summaryOf(result)).toBe(`2 noindex turn(s) (URL × dimension × day) between ${WINDOW.start} and ${WINDOW.end}; on this page 1 URL(s), newest first: https://www.example.com/a.`);
    expect((result.structuredContent!.rows as object[])[0]).not.toHaveProperty('_rowId');
    expect(result.structuredContent!.nextPage).toBeNull();
  });

  it('passes a refusal on with its field and hint', async () => {
    const { api } = recording(() => ({ status: 403, body: { code: 'FORBIDDEN', message: 'no role on shop' } }));
    const refused = await listPagesTurnedNoindex.run(api, { website: 'shop' });
    expect(refused.isError).toBe(true);
    expect(summaryOf(refused)).toMatch(/^Refused: HTTP 403 FORBIDDEN: no role on shop\. The token's role/);
  });
});

describe('get_page_changes', () => {
  it('takes a URL exactly, or a path on any hostname with any query string (regex metacharacters escaped)', () => {
    expect(pageFilter({ url: 'https://www.example.com/pricing' })).toEqual({ field: 'url', op: 'equals', val: 'https://www.example.com/pricing' });
    expect(pageFilter({ url: '/pricing.v2' })).toEqual({ field: 'url', op: 'regex', val: '^https?://[^/]+/pricing\\.v2(\\?.*)?$' });
    const pattern = new RegExp(pageFilter({ url: '/pricing' }).val);
    expect(['https://www.example.com/pricing', 'https://www.example.com/pricing?utm=x'].every((u) => pattern.test(u))).toBe(true);
    expect(['https://www.example.com/pricing-old', 'https://www.example.com/docs/pricing'].some((u) => pattern.test(u))).toBe(false);
    for (const url of [undefined, '', 'pricing', '/a b', '/a?b=1', 'ftp://x/y']) expect(() => pageFilter({ url })).toThrow(/url/);
  });

  it("answers the page's changes and what it says now, in one line", async () => {
    const { api, calls } = recording((request) =>
      request.path.endsWith('/page_changes/query')
        ? { status: 200, body: { data: [{ url: 'https://www.example.com/pricing', dimension: 'desktop', changed_at: '2026-12-06T10:00:00.000Z', field: 'title', before: 'Pricing', after: 'Plans', severity: 'notice', renders: 1 }], meta: { total: 1, page: 1, totalPages: 1, window: WINDOW } } }
        : { status: 200, body: { data: [{ url: 'https://www.example.com/pricing', dimension: 'desktop', status_code: 200, noindex: '', title: 'Plans', issues: '' }], meta: { total: 1, page: 1, totalPages: 1 } } },
    );
    const result = await getPageChanges.run(api, { website: 'demo', url: '/pricing' });
    expect(calls.map((c) => c.path)).toEqual(['/api/websites/demo/data-explorer/page_changes/query', '/api/websites/demo/data-explorer/pages/query']);
    expect(calls[0].body).toMatchObject({ period: '30d', filters: [{ field: 'url', op: 'regex' }] });
    expect(summaryOf(result)).toBe(
      `1 change(s) between ${WINDOW.start} and ${WINDOW.end}, newest first: 2026-12-06T10:00 desktop title: "Pricing" → "Plans" (notice). Now: https://www.example.com/pricing desktop: status 200, indexable, title "Plans", issues none.`,
    );
    expect(result.structuredContent!.current).toHaveLength(1);
  });

  it('refuses a bad url before any call', async () => {
    const { api, calls } = recording(() => ({ status: 200, body: {} }));
    expect(summaryOf(await getPageChanges.run(api, { website: 'demo', url: 'pricing' }))).toMatch(/^Refused: HTTP 400 VALIDATION_FAILED: .*\(field: url\)/);
    expect(calls).toEqual([]);
  });
});

describe('list_critical_pages_by_clicks', () => {
  const rows = [
    { url: 'https://www.example.com/c', dimension: 'desktop', issues: 'noindex', critical_issues: 1, urgent: 1, clicks: 30, impressions: 300 },
    { url: 'https://www.example.com/c', dimension: 'mobile', issues: 'noindex', critical_issues: 1, urgent: 1, clicks: 30, impressions: 300 },
    { url: 'https://www.example.com/gone', dimension: 'desktop', issues: 'status_4xx', critical_issues: 1, urgent: 0, clicks: 4, impressions: 90 },
    { url: 'https://www.example.com/d', dimension: 'desktop', issues: 'noindex,title_missing', critical_issues: 1, urgent: 0, clicks: 2, impressions: 10 },
  ];

  it('sums clicks and impressions per critical issue, a URL counted once whatever its dimensions', () => {
    expect(criticalIssueCosts(rows)).toEqual([
      { code: 'noindex', urls: 2, clicks: 32, impressions: 310 },
      { code: 'status_4xx', urls: 1, clicks: 4, impressions: 90 },
    ]);
  });

  it('asks pages for critical issues by clicks (or impressions) and refuses another order naming it', async () => {
    const { api, calls } = recording(() => ({ status: 200, body: { data: rows, meta: { total: 4, page: 1, totalPages: 2, window: { start: '2026-11-09T00:00:00.000Z', end: '2026-12-07T00:00:00.000Z' } } } }));
    const result = await listCriticalPagesByClicks.run(api, { website: 'demo', orderBy: 'impressions', perPage: 4 });
    expect(calls[0]).toMatchObject({ path: '/api/websites/demo/data-explorer/pages/query', body: { filters: [{ field: 'critical_issues', op: 'gt', val: 0 }], sort: 'impressions', sortDir: 'desc', perPage: 4 } });
    expect(summaryOf(result)).toMatch(/^4 page\(s\) \(URL × dimension\) with critical issues; search 2026-11-09 to 2026-12-07 \(end excluded\), by impressions\. On this page: noindex 2 URL\(s\), 32 clicks, 310 impressions; status_4xx 1 URL\(s\), 4 clicks, 90 impressions\. Top: https:\/\/www\.example\.com\/c \(noindex\) 30 clicks; .* More: call list_critical_pages_by_clicks again with the same arguments and page=2\.$/);
    const { api: unused, calls: none } = recording(() => ({ status: 200, body: {} }));
    expect(summaryOf(await listCriticalPagesByClicks.run(unused, { website: 'demo', orderBy: 'requests' }))).toContain('(field: orderBy)');
    expect(none).toEqual([]);
  });
});
