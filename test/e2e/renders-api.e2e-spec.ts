import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { insertRenderOutcomes, jsonOf, removeTestDataDir, renderOutcome, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { issueToken } from './explorer-fixtures';

const HOUR = 3_600_000;

/** Render history through the real standalone service: authentication, the platform module, bodies, host isolation, exports through the account's slot. */
describe('render history API (standalone)', () => {
  let running: RunningApps;
  let api: string;
  let token: string;
  let shopToken: string;

  beforeAll(async () => {
    const config = testConfig('standalone', {
      scheduler: { enabled: false },
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme' },
        { id: 'shop', host_id: 2, account_id: 'acme' },
        { id: 'off', host_id: 1, account_id: 'other', platform_module: false },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('warn', 'e2e-renders'));
    api = running.urls['public-api']!;
    ({ token } = await issueToken(api, { user: 'rita', website: 'demo', role: 'readonly' }));
    await issueToken(api, { user: 'rita', website: 'off', role: 'readonly' });
    ({ token: shopToken } = await issueToken(api, { user: 'sam', website: 'shop', role: 'readonly' }));
    const now = Date.now();
    await insertRenderOutcomes(running.runtime.ports.explorerStore!, [
      renderOutcome(new Date(now - HOUR), { url: 'https://www.example.com/a', render_ms: 900 }),
      renderOutcome(new Date(now - 2 * HOUR), { url: 'https://www.example.com/b', outcome: 'kept_timeout', reason: 'render timed out; kept the last good entry', render_ms: 20_000, status_code: 0, bytes: 0 }),
      renderOutcome(new Date(now - 3 * HOUR), { url: 'https://www.example.com/c', outcome: 'gave_up', reason: 'gave up after 3 attempts', attempt: 3, trigger: 'sitemap' }),
      renderOutcome(new Date(now - HOUR), { host_id: 2, url: 'https://shop.example.org/private', outcome: 'failed', reason: 'origin answered 502' }),
    ]);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const headers = (bearer: string | null) => ({ 'content-type': 'application/json', ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }) });
  const post = (path: string, body: unknown, bearer: string | null = token, website = 'demo') =>
    fetch(`${api}/api/websites/${website}/renders/${path}`, { method: 'POST', headers: headers(bearer), body: JSON.stringify(body) });
  const get = (path: string, bearer: string | null = token) => fetch(`${api}${path}`, { headers: headers(bearer) });

  it('discovers render history apart from the Data Explorer, which stays as it was', async () => {
    const renders = await get('/api/websites/demo/renders');
    expect(renders.status).toBe(200);
    const entry = await jsonOf(renders);
    expect(entry).toMatchObject({ key: 'renders', features: { comparePeriod: false, comparisonCategories: false }, limits: { perPageMax: 500, perPageDefault: 100, exportRowCap: 1_000_000 } });
    expect(entry.modes.map((m: { key: string }) => m.key)).toEqual(['renders', 'reasons']);
    const explorers = await jsonOf(await get('/api/websites/demo/data-explorer'));
    expect(explorers.explorers.map((e: { key: string }) => e.key)).toEqual(['events', 'search-pages', 'search-keywords', 'pages', 'page_changes']);
    for (const path of ['query', 'export']) {
      const asExplorer = await fetch(`${api}/api/websites/demo/data-explorer/renders/${path}`, { method: 'POST', headers: headers(token), body: '{}' });
      expect({ path, status: asExplorer.status, code: (await jsonOf(asExplorer)).code }).toEqual({ path, status: 404, code: 'NOT_FOUND' });
    }
  });

  it('answers failures first, grouped by reason, and one row per render', async () => {
    const reasons = await post('query', { mode: 'reasons', period: '24h', filters: [{ field: 'outcome_class', op: 'ne', val: 'stored' }] });
    expect(reasons.status).toBe(200);
    const grouped = await jsonOf(reasons);
    expect(grouped.meta).toMatchObject({ explorerKey: 'renders', mode: 'reasons', total: 2 });
    expect(grouped.data.map((r: { outcome: string; renders: number }) => [r.outcome, r.renders])).toEqual([['gave_up', 1], ['kept_timeout', 1]]);

    const rows = await jsonOf(await post('query', { columns: ['page', 'outcome', 'trigger', 'attempt'], period: '24h' }));
    expect(rows.meta).toMatchObject({ total: 3, sort: 'rendered_at', sortDir: 'desc' });
    expect(rows.data.map(({ _rowId, ...r }: Record<string, unknown>) => r)).toEqual([
      { page: 'https://www.example.com/a', outcome: 'stored', trigger: 'recache_normal', attempt: 1 },
      { page: 'https://www.example.com/b', outcome: 'kept_timeout', trigger: 'recache_normal', attempt: 1 },
      { page: 'https://www.example.com/c', outcome: 'gave_up', trigger: 'sitemap', attempt: 3 },
    ]);
  });

  it('answers the timeseries: renders by class per hour', async () => {
    const response = await post('timeseries', { period: '24h' });
    expect(response.status).toBe(200);
    const { meta, points } = await jsonOf(response);
    expect(meta).toMatchObject({ period: '24h', interval: 'hour' });
    const total = (key: string) => points.reduce((n: number, p: Record<string, number>) => n + p[key], 0);
    expect([total('renders'), total('stored'), total('kept'), total('failed')]).toEqual([3, 1, 1, 1]);
  });

  it("never shows another website's host rows", async () => {
    const demo = await jsonOf(await post('query', { period: '90d', filters: [{ field: 'url', op: 'contains', val: 'shop.example.org' }] }));
    expect(demo.meta.total).toBe(0);
    const shop = await jsonOf(await post('query', { period: '24h' }, shopToken, 'shop'));
    expect(shop.data.map((r: { page: string }) => r.page)).toEqual(['https://shop.example.org/private']);
    // A token of demo cannot read shop's history at all.
    expect((await post('query', {}, token, 'shop')).status).toBe(403);
  });

  it('refuses bad bodies with 400 VALIDATION_FAILED naming the field, unknown keys included', async () => {
    const cases: [string, unknown, string][] = [
      ['query', { mode: 'requests' }, 'mode'],
      ['query', { compPeriod: '7d' }, 'compPeriod'],
      ['query', { columns: ['bot_name'] }, 'columns[0]'],
      ['query', { filters: [{ field: 'outcome', val: 'exploded' }] }, 'filters[0].val'],
      ['query', { filters: [{ field: 'url', op: 'regex', val: '(?<=a)b' }] }, 'filters[0].val'],
      ['query', { period: '2020-01-01,2026-01-01' }, 'period'],
      ['query', { perPage: '10' }, 'perPage'],
      ['timeseries', { interval: 'minute' }, 'interval'],
      ['timeseries', { mode: 'reasons' }, 'mode'],
      ['export', { page: 2 }, 'page'],
      ['export', { filters: [{ field: 'dimension', val: 'tablet' }] }, 'filters[0].val'],
    ];
    for (const [path, body, field] of cases) {
      const response = await post(path, body);
      const answer = await jsonOf(response);
      expect({ path, body, status: response.status, code: answer.code, field: answer.field }).toEqual({ path, body, status: 400, code: 'VALIDATION_FAILED', field });
    }
  });

  it('refuses without a token, and where the platform module is off', async () => {
    expect((await post('query', {}, null)).status).toBe(401);
    const off = await post('query', {}, token, 'off');
    expect({ status: off.status, code: (await jsonOf(off)).code }).toEqual({ status: 403, code: 'FEATURE_DISABLED' });
  });

  it("exports render history through the account's one slot: the Data Explorer status and list show it", async () => {
    const started = await post('export', { mode: 'reasons', period: '24h', filename: 'failures', waitSeconds: 30 });
    expect(started.status).toBe(200);
    const record = await jsonOf(started);
    expect(record).toMatchObject({ status: 'completed', rowCount: 3, filename: 'failures.csv', columns: ['outcome', 'reason', 'renders', 'pages', 'avg_render_ms', 'last_rendered_at'] });
    const status = await jsonOf(await get(`/api/websites/demo/data-explorer/export/${record.exportId}/status`));
    expect(status).toMatchObject({ exportId: record.exportId, status: 'completed', filename: 'failures.csv' });
    const listed = await jsonOf(await get('/api/websites/demo/data-explorer/exports'));
    expect(listed.exports.map((e: { exportId: number }) => e.exportId)).toContain(record.exportId);
    const csv = await (await fetch(status.downloadUrl.replace(/^https?:\/\/[^/]+/, api))).text();
    expect(csv.split('\r\n')[0]).toBe('"outcome","reason","renders","pages","avg_render_ms","last_rendered_at"');

    // One export at a time per account: while another export holds acme's slot, a renders export of any of its websites is refused, naming it.
    const slots = running.runtime.ports.exportSlots!;
    const held = await slots.claim('acme', 'e2e-holder', 'another-question', 60_000);
    if (!held.claimed) throw new Error('the slot should be free');
    try {
      const busy = await post('export', { period: '24h', filename: 'second' }, shopToken, 'shop');
      expect({ status: busy.status, body: await jsonOf(busy) }).toEqual({ status: 409, body: { code: 'EXPORT_SLOT_BUSY', message: expect.any(String), exportId: held.exportId } });
    } finally {
      await slots.release('acme', held.exportId);
    }
  }, 60_000);
});
