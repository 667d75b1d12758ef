import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { Json, jsonOf, removeTestDataDir, RuntimeMode, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { seededRandom } from '@bpc/explorer';
import { botRequest, issueToken, recordAndWait } from './explorer-fixtures';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.each<RuntimeMode>(['standalone', 'cluster'])('Data Explorer discovery and query (%s mode, chDB)', (mode) => {
  let running: RunningApps;
  let api: string;
  let token: string;
  const now = Date.now();

  beforeAll(async () => {
    const config = testConfig(mode, {
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme' },
        { id: 'shop', host_id: 2, account_id: 'other' },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('warn', `e2e-explorer-query-${mode}`));
    api = running.urls['public-api']!;
    ({ token } = await issueToken(api, { user: 'alice', website: 'demo', role: 'readonly' }));
    const at = (ms: number) => new Date(now - ms);
    const page = (path: string) => `https://www.example.com${path}`;
    await recordAndWait(
      running,
      [
        // r1, r3 and r4 carry the fields added to the event since; r2 is an event recorded before them (their defaults).
        botRequest('demo', at(1 * HOUR), { url: page('/a'), pageTitle: 'A', botName: 'Googlebot', serveTimeMs: 10, requestId: 'r1', format: 'html', botCategory: 'search', botOperator: 'Google', verified: 'yes', robotsAllowed: 'yes' }),
        botRequest('demo', at(2 * HOUR), { url: page('/a'), pageTitle: 'A', botName: 'Bingbot', serveTimeMs: 30, requestId: 'r2' }),
        botRequest('demo', at(3 * HOUR), { url: page('/b'), pageTitle: 'B', botName: 'Googlebot', statusCode: 404, serveTimeMs: 500, cacheStatus: 'miss', requestId: 'r3', format: 'html', botCategory: 'search', botOperator: 'Google', verified: 'no', robotsAllowed: 'yes' }),
        botRequest('demo', at(30 * HOUR), { url: page('/c'), pageTitle: "C's \"quoted\" title", botName: 'GPTBot', serveTimeMs: 40, requestId: 'r4', format: 'markdown', botCategory: 'ai_training', botOperator: 'OpenAI', verified: 'unknown', robotsAllowed: 'no' }),
        // Comparison window (31-60 days ago): /a returns, /old is lost, /b and /c are new.
        botRequest('demo', at(40 * DAY), { url: page('/a'), requestId: 'r5' }),
        botRequest('demo', at(45 * DAY), { url: page('/old'), requestId: 'r6' }),
      ],
      'demo',
      6,
    );
    await recordAndWait(running, [botRequest('shop', at(1 * HOUR), { url: 'https://shop.example.org/secret', pageTitle: 'Secret', requestId: 'shop-1' })], 'shop', 1);
  }, 30_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const query = async (explorer: string, body: unknown, website = 'demo', auth = token): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${api}/api/websites/${website}/data-explorer/${explorer}/query`, {
      method: 'POST',
      headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: await jsonOf(response) };
  };

  it('discovery lists the three explorers, their modes, defaults, periods and limits', async () => {
    const response = await fetch(`${api}/api/websites/demo/data-explorer`, { headers: { authorization: `Bearer ${token}` } });
    expect(response.status).toBe(200);
    const body = await jsonOf(response);
    expect(body.limits).toEqual({ perPageMax: 500, perPageDefault: 100, exportRowCap: 1_000_000 });
    expect(body.explorers.map((e: Json) => e.key)).toEqual(['events', 'search-pages', 'search-keywords', 'pages', 'page_changes']);
    const events = body.explorers[0];
    expect(events.features).toEqual({ comparePeriod: true, comparisonCategories: true });
    expect(events.modes.map((m: Json) => [m.key, m.default])).toEqual([['requests', true], ['unique_pages', false], ['comparison', false]]);
    expect(events.modes[0].defaults).toEqual({ columns: ['page', 'event_date_time', 'bot_name', 'serve_time'], sort: 'event_date_time', sortDir: 'desc', period: '30d' });
    expect(events.periods).toEqual({ presets: ['24h', '7d', '14d', '28d', '30d', '90d'], customFormat: 'YYYY-MM-DD,YYYY-MM-DD', timeBounds: true, maxRangeDays: 365 });
    const url = events.modes[0].filters.find((f: Json) => f.field === 'url');
    expect(url).toMatchObject({ type: 'string', required: false, valuelessOperators: ['empty', 'not_empty'] });
    expect(url.operators).toEqual(expect.arrayContaining(['contains', 'equals', 'regex', 'empty', 'not_empty']));
    expect(events.modes[0].filters.find((f: Json) => f.field === 'status_code').operators).toContain('eq');
    expect(events.modes[0].columns[0]).toEqual({ key: 'page', title: 'Page', group: 'Page', dataType: 'string', sortable: true, modes: ['requests', 'unique_pages', 'comparison'] });
    expect(body.explorers[1].modes.map((m: Json) => m.key)).toEqual(['search_pages']);
    expect(body.explorers[1].periods.presets).not.toContain('24h');
    expect(body.explorers[2].modes.map((m: Json) => m.key)).toEqual(['search_keywords']);
  });

  it('{} runs the defaults and meta reports every resolved default', async () => {
    const { status, body } = await query('events', {});
    expect(status).toBe(200);
    expect(body.meta).toMatchObject({
      explorerKey: 'events', mode: 'requests', page: 1, perPage: 100, total: 4, totalPages: 1,
      columns: ['page', 'event_date_time', 'bot_name', 'serve_time'], sort: 'event_date_time', sortDir: 'desc', period: '30d',
    });
    const { start, end } = body.meta.window;
    expect(Date.parse(end) - Date.parse(start)).toBe(30 * DAY);
    expect(start).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(body.meta.compPeriod).toBeUndefined();
    expect(body.data.map((r: Json) => r._rowId)).toEqual(['r1', 'r2', 'r3', 'r4']);
    expect(body.data[0]).toEqual({
      page: 'https://www.example.com/a', _title: 'A', _status_code: 200,
      event_date_time: new Date(now - HOUR).toISOString(), bot_name: 'Googlebot', serve_time: 10, _rowId: 'r1',
    });
    expect(body.data[3]._title).toBe("C's \"quoted\" title");
  });

  it('sorts, pages, filters, and applies the 24h preset', async () => {
    const sorted = await query('events', { sort: 'serve_time', columns: ['serve_time'] });
    expect(sorted.body.meta.sortDir).toBe('desc');
    expect(sorted.body.data.map((r: Json) => r.serve_time)).toEqual([500, 40, 30, 10]);
    expect(Object.keys(sorted.body.data[0]).sort()).toEqual(['_rowId', 'serve_time']);

    const paged = await query('events', { perPage: 3, page: 2 });
    expect(paged.body.meta).toMatchObject({ total: 4, totalPages: 2, page: 2, perPage: 3 });
    expect(paged.body.data.map((r: Json) => r._rowId)).toEqual(['r4']);

    const day = await query('events', { period: '24h' });
    expect(day.body.meta.total).toBe(3);

    const filtered = await query('events', { filters: [{ field: 'status_code', op: 'eq', val: 404 }] });
    expect(filtered.body.data.map((r: Json) => r._rowId)).toEqual(['r3']);
    const regex = await query('events', { filters: [{ field: 'url', op: 'regex', val: '/(a|c)$' }, { field: 'bot_name', op: 'not_equals', val: 'Bingbot' }] });
    expect(regex.body.data.map((r: Json) => r._rowId)).toEqual(['r1', 'r4']);
    const between = await query('events', { filters: [{ field: 'serve_time', op: 'between', val: 20, val2: 100 }] });
    expect(between.body.data.map((r: Json) => r._rowId)).toEqual(['r2', 'r4']);
    const contains = await query('events', { filters: [{ field: 'url', val: '/B' }] });
    expect(contains.body.data.map((r: Json) => r._rowId)).toEqual(['r3']);
  });

  it('shows and filters the bot fields, events recorded before them reading their defaults; discovery lists their values; the insights split by category', async () => {
    const columns = ['bot_name', 'bot_category', 'bot_operator', 'verified', 'robots_allowed', 'format'];
    const all = await query('events', { columns, sort: 'event_date_time', sortDir: 'desc' });
    expect(all.status).toBe(200);
    expect(all.body.data.map((r: Json) => [r._rowId, r.bot_category, r.bot_operator, r.verified, r.robots_allowed, r.format])).toEqual([
      ['r1', 'search', 'Google', 'yes', 'yes', 'html'],
      ['r2', 'other', 'unknown', 'unknown', 'unknown', 'html'],
      ['r3', 'search', 'Google', 'no', 'yes', 'html'],
      ['r4', 'ai_training', 'OpenAI', 'unknown', 'no', 'markdown'],
    ]);
    const ids = async (filters: Json[], mode = 'requests') => (await query('events', { mode, filters })).body.data.map((r: Json) => r._rowId);
    expect(await ids([{ field: 'verified', op: 'eq', val: 'no' }])).toEqual(['r3']);
    expect(await ids([{ field: 'bot_category', op: 'ne', val: 'search' }])).toEqual(['r2', 'r4']);
    expect(await ids([{ field: 'robots_allowed', val: 'no' }, { field: 'format', val: 'markdown' }])).toEqual(['r4']);
    expect(await ids([{ field: 'bot_operator', op: 'equals', val: 'unknown' }])).toEqual(['r2']);
    expect(await ids([{ field: 'bot_category', val: 'search' }], 'unique_pages')).toEqual(['https://www.example.com/a', 'https://www.example.com/b']);
    const refused = await query('events', { filters: [{ field: 'bot_category', val: 'crawler' }] });
    expect(refused).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'filters[0].val' } });

    const discovery = await jsonOf(await fetch(`${api}/api/websites/demo/data-explorer`, { headers: { authorization: `Bearer ${token}` } }));
    const filters = discovery.explorers[0].modes[1].filters;
    expect(filters.find((f: Json) => f.field === 'verified').options.map((o: Json) => o.value)).toEqual(['yes', 'no', 'unknown']);
    expect(filters.find((f: Json) => f.field === 'bot_category').options.map((o: Json) => o.value)).toContain('ai_assistant');

    const response = await fetch(`${api}/api/websites/demo/insights/bot-categories`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ period: '7d' }) });
    expect(response.status).toBe(200);
    const { data } = await jsonOf(response);
    expect(data).toEqual({
      requests: 4,
      categories: [
        { category: 'search', requests: 2, share: 0.5, pages: 2 },
        { category: 'ai_training', requests: 1, share: 0.25, pages: 1 },
        { category: 'other', requests: 1, share: 0.25, pages: 1 },
      ],
      aiAgents: { requests: 1, share: 0.25, pages: 1 },
      topAiPages: [{ category: 'ai_training', url: 'https://www.example.com/c', requests: 1 }],
    });
  });

  it('unique_pages groups per URL; comparison splits by compCategory against the previous window', async () => {
    const unique = await query('events', { mode: 'unique_pages' });
    expect(unique.status).toBe(200);
    expect(unique.body.meta).toMatchObject({ mode: 'unique_pages', sort: 'requests', sortDir: 'desc', total: 3 });
    expect(unique.body.data[0]).toMatchObject({ page: 'https://www.example.com/a', _rowId: 'https://www.example.com/a', requests: 2, bots: 2, avg_serve_time: 20, _title: 'A' });

    const fresh = await query('events', { mode: 'comparison' });
    expect(fresh.status).toBe(200);
    expect(fresh.body.meta).toMatchObject({ mode: 'comparison', compCategory: 'new' });
    expect(Date.parse(fresh.body.meta.compWindow.end)).toBe(Date.parse(fresh.body.meta.window.start));
    expect(typeof fresh.body.meta.compPeriod).toBe('string');
    expect(fresh.body.data.map((r: Json) => r.page).sort()).toEqual(['https://www.example.com/b', 'https://www.example.com/c']);
    const returning = await query('events', { mode: 'comparison', compCategory: 'returning' });
    expect(returning.body.data).toEqual([
      expect.objectContaining({ page: 'https://www.example.com/a', requests: 2, comp_requests: 1, requests_change: 1 }),
    ]);
    const lost = await query('events', { mode: 'comparison', compCategory: 'lost' });
    expect(lost.body.data.map((r: Json) => r.page)).toEqual(['https://www.example.com/old']);
  });

  it('search explorers answer an empty page 1 and refuse page 2', async () => {
    const pages = await query('search-pages', {});
    expect(pages.status).toBe(200);
    expect(pages.body).toEqual({ data: [], meta: expect.objectContaining({ explorerKey: 'search-pages', mode: 'search_pages', total: 0, totalPages: 0, page: 1, period: '28d' }) });
    expect((await query('search-keywords', { mode: 'search_keywords' })).status).toBe(200);
    const past = await query('search-pages', { page: 2 });
    expect(past).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: expect.any(String), field: 'page' } });
  });

  it.each<[string, string, unknown, string]>([
    ['unknown body key', 'events', { foo: 1 }, 'foo'],
    ['unknown column', 'events', { columns: ['nope'] }, 'columns[0]'],
    ['_-prefixed column', 'events', { columns: ['_title'] }, 'columns[0]'],
    ['empty columns', 'events', { columns: [] }, 'columns'],
    ['null columns (null is not "omitted")', 'events', { columns: null }, 'columns'],
    ['a column that is not a string', 'events', { columns: ['page', 5] }, 'columns[1]'],
    ['null compPeriod in comparison mode', 'events', { mode: 'comparison', compPeriod: null }, 'compPeriod'],
    ['null period', 'events', { period: null }, 'period'],
    ['period entry in filters', 'events', { filters: [{ field: 'period', val: '7d' }] }, 'filters[0].field'],
    ['invalid sortDir', 'events', { sortDir: 'up' }, 'sortDir'],
    ['unsortable column', 'events', { sort: 'user_agent' }, 'sort'],
    ['other mode on a fixed explorer', 'search-pages', { mode: 'requests' }, 'mode'],
    ['unknown mode', 'events', { mode: 'everything' }, 'mode'],
    ['24h on a whole-day explorer', 'search-keywords', { period: '24h' }, 'period'],
    ['compPeriod without a comparison window', 'events', { compPeriod: '2026-01-01,2026-01-31' }, 'compPeriod'],
    ['compPeriod on a search explorer', 'search-pages', { compPeriod: '2026-01-01,2026-01-31' }, 'compPeriod'],
    ['compCategory outside comparison', 'events', { mode: 'unique_pages', compCategory: 'new' }, 'compCategory'],
    ['unknown compCategory', 'events', { mode: 'comparison', compCategory: 'old' }, 'compCategory'],
    ['compPeriod with a time of day', 'events', { mode: 'comparison', compPeriod: '2026-01-01T10:00,2026-01-31' }, 'compPeriod'],
    ['page past the last', 'events', { page: 2 }, 'page'],
    ['page 0', 'events', { page: 0 }, 'page'],
    ['perPage above the maximum', 'events', { perPage: 501 }, 'perPage'],
    ['perPage 0', 'events', { perPage: 0 }, 'perPage'],
    ['perPage as a string', 'events', { perPage: '5' }, 'perPage'],
    ['malformed period', 'events', { period: 'last week' }, 'period'],
    ['period over 365 days', 'events', { period: '2024-01-01,2025-06-01' }, 'period'],
    ['impossible date', 'events', { period: '2026-02-30,2026-03-02' }, 'period'],
    ['unknown preset', 'events', { period: '3d' }, 'period'],
    ['unknown operator', 'events', { filters: [{ field: 'url', op: 'like', val: 'x' }] }, 'filters[0].op'],
    ['missing val', 'events', { filters: [{ field: 'url', op: 'equals' }] }, 'filters[0].val'],
    ['val on a valueless operator', 'events', { filters: [{ field: 'url', op: 'empty', val: 'x' }] }, 'filters[0].val'],
    ['text val for a number filter', 'events', { filters: [{ field: 'status_code', op: 'eq', val: '200 OR 1=1' }] }, 'filters[0].val'],
    ['range without val2', 'events', { filters: [{ field: 'serve_time', op: 'between', val: 1 }] }, 'filters[0].val2'],
    ['look-around regex', 'events', { filters: [{ field: 'url', op: 'regex', val: '(?=a)b' }] }, 'filters[0].val'],
    ['backreference regex', 'events', { filters: [{ field: 'url', op: 'regex', val: '(a)\\1' }] }, 'filters[0].val'],
    ['regex bomb', 'events', { filters: [{ field: 'url', op: 'regex', val: '((a{1000}){1000}){1000}' }] }, 'filters[0].val'],
    ['regex over the repetition budget', 'events', { filters: [{ field: 'url', op: 'regex', val: '[\\x{0}-\\x{10FFFF}]{1000}'.repeat(40) }] }, 'filters[0].val'],
    ['unknown filter field', 'events', { filters: [{ field: 'secret', val: 'x' }] }, 'filters[0].field'],
    ['unknown key inside a filter', 'events', { filters: [{ field: 'url', val: 'x', sql: '1' }] }, 'filters.0.sql'],
    ['non-object body', 'events', '[1,2]', 'body'],
  ])('rejects %s with 400 VALIDATION_FAILED naming the field', async (_name, explorer, body, field) => {
    const response = await query(explorer, body);
    expect(response).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: expect.any(String), field: expect.any(String) } });
    expect(response.body.field.replace(/\[(\d+)\]/g, '.$1')).toBe(field.replace(/\[(\d+)\]/g, '.$1'));
  });

  it.each([
    ['\\y', 'invalid escape sequence: \\y'],
    ['[z-a]', 'invalid character class range: z-a'],
    ['\\p{Foo}', 'invalid character class range: \\p{Foo}'],
  ])('refuses the pattern %j with RE2\'s own reason before it reaches the store', async (val, reason) => {
    const response = await query('events', { filters: [{ field: 'bot_name', val: 'Googlebot' }, { field: 'url', op: 'not_regex', val }] });
    expect(response).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: `invalid regular expression (RE2 syntax): ${reason}`, field: 'filters[1].val' } });
  });

  it('never lets hostile values reach SQL unbound and never answers 500', async () => {
    const hostile = ["' OR 1=1 --", "https://shop.example.org/secret' UNION SELECT * FROM bot_requests --", '/*', '\\', "') ; DROP TABLE bot_requests; --", 'x'.repeat(1000), '.*.*.*.*.*.*.*.*.*.*.*=$'];
    for (const val of hostile) {
      for (const op of ['contains', 'equals', 'regex', 'not_contains']) {
        const { status, body } = await query('events', { filters: [{ field: 'url', op, val }] });
        expect({ val, op, status }).toEqual({ val, op, status: status === 400 ? 400 : 200 });
        if (status === 200) expect(body.data.every((r: Json) => !String(r.page).includes('shop.example.org'))).toBe(true);
      }
    }
    const numbers = [1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 1.5];
    for (const val of numbers) expect([200, 400]).toContain((await query('events', { filters: [{ field: 'status_code', op: 'gt', val }] })).status);
    expect((await query('events', { page: 1e308 })).status).toBe(400);
    let deep: unknown = 'x';
    for (let i = 0; i < 200; i++) deep = { val: deep };
    expect((await query('events', { filters: [{ field: 'url', val: deep }] })).status).toBe(400);
    // Sent as text: 5,000 levels overflowed the stack of the recursive checks (a 500).
    const deeper = await query('events', `{"filters":[{"field":"url","val":${'{"val":'.repeat(5_000)}1${'}'.repeat(5_000)}}]}`);
    expect(deeper).toEqual({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'request body nests deeper than 32 levels', field: 'body' } });
    expect((await query('events', '{"columns": ')).status).toBe(400);
  });

  it('fuzz: random query bodies get 200 or a 400 naming a body field, never anything else', async () => {
    const random = seededRandom(2026);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];
    const values: unknown[] = ['', 'x', "'; DROP TABLE bot_requests; --", '24h', '30d', '2026-01-01,2026-01-31', 'asc', 'desc', 'page', '_title', 'requests', 'unique_pages', 'comparison', 'new',
      0, 1, -1, 2, 500, 501, 1e308, 1.5, null, true, [], ['page'], ['page', 'bogus'], {}, { field: 'url', val: 'a' }, [{ field: 'url', op: 'regex', val: '(?=x)' }], [{ field: 'status_code', op: 'between', val: 1, val2: 999 }]];
    const keys = ['mode', 'columns', 'filters', 'period', 'compPeriod', 'compCategory', 'sort', 'sortDir', 'page', 'perPage', 'bogus', '__proto__', 'constructor'];
    for (let i = 0; i < 150; i++) {
      const body: Record<string, unknown> = {};
      const n = Math.floor(random() * 4);
      // defineProperty: `__proto__` as an own key is really sent, not taken as the prototype.
      for (let k = 0; k < n; k++) Object.defineProperty(body, pick(keys), { value: pick(values), enumerable: true, configurable: true, writable: true });
      const explorer = pick(['events', 'search-pages', 'search-keywords']);
      const { status, body: answer } = await query(explorer, body);
      const unknownKey = Object.keys(body).some((k) => ['bogus', '__proto__', 'constructor'].includes(k));
      if (status === 200) {
        expect({ body, unknownKeyAccepted: unknownKey }).toEqual({ body, unknownKeyAccepted: false });
        continue;
      }
      expect({ explorer, body, status, code: answer.code }).toEqual({ explorer, body, status: 400, code: 'VALIDATION_FAILED' });
      expect(typeof answer.field).toBe('string');
      expect(answer.field.replace(/[[.].*$/, '')).toMatch(/^(mode|columns|filters|period|compPeriod|compCategory|sort|sortDir|page|perPage|bogus|__proto__|constructor|body)$/);
    }
  });

  it('keeps tenants apart: demo rows only, even through filters; the shop token reads shop only', async () => {
    const shopUrl = await query('events', { filters: [{ field: 'url', op: 'contains', val: 'shop.example.org' }] });
    expect(shopUrl.body.meta.total).toBe(0);
    const byId = await query('events', { filters: [{ field: 'url', op: 'not_empty' }], perPage: 500 });
    expect(byId.body.data.map((r: Json) => r._rowId)).not.toContain('shop-1');
    const forbidden = await query('events', {}, 'shop');
    expect(forbidden.status).toBe(403);
    const { token: shopToken } = await issueToken(api, { user: 'sam', website: 'shop', role: 'readonly' });
    const shop = await query('events', {}, 'shop', shopToken);
    expect(shop.body.data.map((r: Json) => r._rowId)).toEqual(['shop-1']);
    expect((await query('events', {}, 'demo', shopToken)).status).toBe(403);
  });
});
