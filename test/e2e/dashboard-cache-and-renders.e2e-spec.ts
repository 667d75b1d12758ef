import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, removeTestDataDir, testConfig, TestOrigin, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { buildDashboard, launchChromium, seriousViolations, signInWithToken } from './dashboard-fixtures';
import { issueToken } from './explorer-fixtures';

/** Where the journeys leave their screenshots: DASHBOARD_SHOTS, else a temporary directory. */
const SHOTS = process.env.DASHBOARD_SHOTS ?? mkdtempSync(path.join(tmpdir(), 'dashboard-shots-'));
const page = (p: string) => `https://www.example.com${p}`;
/** A page worth caching: a title and some text (the last-good rules compare sizes with it). */
const goodPage = (p: string) => `<html><head><title>Page ${p}</title></head><body><h1>${p}</h1><p>${'Some words of content. '.repeat(40)}</p></body></html>`;

/** Two pages of the website and one on another host (skipped). */
const SITEMAP = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${[page('/map/1'), page('/map/2'), 'https://elsewhere.example.net/x']
  .map((loc) => `<url><loc>${loc}</loc></url>`)
  .join('')}</urlset>`;

/**
 * The cache and render pages of the dashboard, in real headless Chromium against the real
 * standalone service whose origin (a test origin) answers `/broken` with 503
 * and every other path with a good page: a recache followed on its receipt,
 * the failure on the Renders page grouped by reason, cache entry search and
 * invalidation with its dry run, the drain estimate, the alerts page, and a
 * readonly user's Cache page.
 */
describe('dashboard journeys in Chromium: recache receipts, renders, cache entries, sitemaps, alerts', () => {
  let running: RunningApps;
  let origin: TestOrigin;
  let api: string;
  let browser: Browser;
  let manager: string;
  let readonly: string;

  beforeAll(async () => {
    buildDashboard();
    origin = new TestOrigin((p) => {
      if (p === '/sitemap.xml') return { status: 200, body: SITEMAP, headers: { 'content-type': 'application/xml' } };
      return p.startsWith('/broken') ? { status: 503, body: 'down for maintenance' } : { status: 200, body: goodPage(p) };
    });
    const originUrl = await origin.start();
    const config = testConfig('standalone', {
      scheduler: { tick_ms: 100 },
      // One attempt: a page that fails is given up at once, so its outcome is final within the journey.
      internal_queue: { max_retries: 1 },
      recache: { max_concurrent: 2, timeout_per_url: 10 },
      rate_limit: { enabled: false },
      hosts: [{ host_id: 1, hostnames: ['www.example.com'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', match: { fallback: true }, action: 'bypass' }] }],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }],
    });
    running = await startApps(standaloneApps, config, createLogger('warn', 'e2e-dashboard-cache-and-renders'));
    api = running.urls['public-api']!;
    manager = (await issueToken(api, { user: 'alice', website: 'demo', role: 'manager' })).token;
    readonly = (await issueToken(api, { user: 'rita', website: 'demo', role: 'readonly' })).token;
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    await origin?.stop();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const post = async (token: string, apiPath: string, body: unknown) =>
    jsonOf(await fetch(`${api}${apiPath}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }));

  async function freshPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext();
    return { context, page: await context.newPage() };
  }

  async function shot(p: Page, name: string): Promise<void> {
    await p.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }

  it('recaches two pages and follows the receipt live until one is stored and the other failed; the queue shows a drain estimate', async () => {
    const { context, page: tab } = await freshPage();
    await signInWithToken(tab, api, manager, '/w/demo/cache');
    await tab.getByTestId('queue-normal-drain').waitFor();
    // Worded as an estimate, or as none.
    expect(await tab.getByTestId('queue-normal-drain').innerText()).toMatch(/^(about [\d.,]+ (min|h)|unknown|nothing waiting)$/);
    const recache = tab.locator('section', { has: tab.getByRole('heading', { name: 'Recache pages' }) });
    await recache.getByLabel('URLs').fill(`${page('/fine-1')}\n${page('/broken')}`);
    await recache.getByRole('button', { name: 'Recache', exact: true }).click();
    await tab.getByText(/Their receipt follows below/).waitFor();
    const receipt = tab.getByTestId('receipt');
    await receipt.waitFor();
    // Read every 2 s until no entry is queued or rendering.
    await receipt.getByText(/^Done\./).waitFor({ timeout: 60_000 });
    expect(await tab.getByTestId('receipt-totals').innerText()).toContain('2 of 2 entries done: 1 stored, 0 kept the old page, 1 failed');
    const stateOf = async (url: string) => receipt.locator('tr', { hasText: url }).getByTestId('receipt-state').innerText();
    expect(await stateOf(page('/fine-1'))).toBe('stored');
    expect(await stateOf(page('/broken'))).toBe('failed');
    await shot(tab, 'cache-receipt-done');
    expect(await seriousViolations(tab)).toEqual([]);
    await context.close();
  }, 120_000);

  it('shows the failed render on the Renders page, grouped by its reason, failures first, with its single renders', async () => {
    // The render history is a read model: wait until the API has the failure, then the page must show it.
    const reasons = await until(
      () => post(manager, '/api/websites/demo/renders/query', { mode: 'reasons', period: '24h', filters: [{ field: 'outcome_class', op: 'eq', val: 'failed' }] }),
      (answer: { data?: { outcome: string; reason: string; renders: number }[] }) => (answer.data?.length ?? 0) > 0,
      { timeoutMs: 30_000, what: 'a failed render in the render history' },
    );
    const failed = reasons.data![0]!;
    const { context, page: tab } = await freshPage();
    await signInWithToken(tab, api, manager, '/w/demo/renders?period=24h');
    const rows = tab.getByTestId('reason-row');
    await rows.first().waitFor();
    // Failures first: the first row is the failed outcome the API reports, with its reason.
    const first = await rows.first().innerText();
    expect(first).toMatch(/failed/);
    if (failed.reason) expect(first).toContain(failed.reason);
    await tab.getByRole('figure').first().waitFor();
    await rows.first().getByRole('button', { name: /^Show renders/ }).click();
    await tab.waitForURL(/outcome=/);
    const table = tab.getByRole('table', { name: 'Single renders' });
    await table.locator('tbody tr', { hasText: page('/broken') }).first().waitFor();
    await shot(tab, 'renders');
    expect(await seriousViolations(tab)).toEqual([]);
    await context.close();
  }, 90_000);

  it('searches cache entries by prefix, and the invalidation dry run counts the same entries before anything is dropped', async () => {
    await post(manager, '/api/websites/demo/cache/recache', { urls: [page('/shop/a'), page('/shop/b'), page('/shop/c')] });
    const listed = await until(
      () => post(manager, '/api/websites/demo/cache/entries/query', { prefix: page('/shop/') }),
      (answer: { meta?: { total: number } }) => answer.meta?.total === 3,
      { timeoutMs: 30_000, what: 'three cached /shop/ entries' },
    );
    const { context, page: tab } = await freshPage();
    await signInWithToken(tab, api, manager, '/w/demo/cache');
    const search = tab.locator('section', { has: tab.getByRole('heading', { name: 'Search cache entries' }) });
    await search.getByLabel('URL prefix').fill(page('/shop/'));
    await search.getByRole('button', { name: 'Search' }).click();
    await search.getByTestId('entries-total').waitFor();
    expect(await search.getByTestId('entries-total').innerText()).toBe(String(listed.meta!.total));
    await search.getByRole('button', { name: page('/shop/b') }).click();
    const lookup = tab.getByRole('table', { name: `Cache entries of ${page('/shop/b')}, per dimension` });
    await lookup.waitFor();
    expect(await lookup.locator('tbody tr').first().innerText()).toContain('yes');

    await search.getByRole('button', { name: 'Invalidate these…' }).click();
    const invalidate = tab.locator('section', { has: tab.getByRole('heading', { name: 'Invalidate matching entries' }) });
    // The click fills the form in a React update after it resolves: wait for the value rather than read it once.
    await until(() => invalidate.getByLabel('URL prefix').inputValue(), (value) => value === page('/shop/'), { timeoutMs: 10_000, intervalMs: 50, what: 'the invalidate form taking the search prefix' });
    await invalidate.getByRole('button', { name: 'Count matching entries (dry run)' }).click();
    await invalidate.getByTestId('dry-run-count').waitFor();
    const dryRun = await post(manager, '/api/websites/demo/cache/entries/invalidate', { prefix: page('/shop/'), dryRun: true });
    expect(dryRun).toMatchObject({ dryRun: true, entriesMatched: 3, urlsMatched: 3, entriesInvalidated: 0 });
    expect(await invalidate.getByTestId('dry-run-count').innerText()).toContain(`${dryRun.entriesMatched} cache entries of ${dryRun.urlsMatched} URLs match`);
    await shot(tab, 'cache-invalidate-dry-run');
    expect(await seriousViolations(tab)).toEqual([]);
    await invalidate.getByRole('button', { name: `Invalidate ${dryRun.entriesMatched} entries` }).click();
    await invalidate.getByText(`${dryRun.entriesMatched} cache entries invalidated`, { exact: false }).waitFor();
    expect((await post(manager, '/api/websites/demo/cache/entries/query', { prefix: page('/shop/') })).meta.total).toBe(0);
    await context.close();
  }, 90_000);

  it('recaches a sitemap: the counts taken and skipped, then its receipt to stored', async () => {
    const { context, page: tab } = await freshPage();
    await signInWithToken(tab, api, manager, '/w/demo/cache');
    const form = tab.locator('section', { has: tab.getByRole('heading', { name: 'Recache a sitemap' }) });
    await form.getByLabel('Sitemap URL').fill(page('/sitemap.xml'));
    await form.getByRole('button', { name: 'Recache sitemap' }).click();
    const counts = form.getByTestId('sitemap-counts');
    await counts.waitFor();
    expect(await counts.innerText()).toContain('1 sitemap read, 3 URLs found: 2 taken, 2 cache entries queued. Skipped: 1 on other hosts');
    const receipt = tab.getByTestId('receipt');
    await receipt.getByText(/^Done\./).waitFor({ timeout: 60_000 });
    expect(await tab.getByTestId('receipt-totals').innerText()).toContain('2 of 2 entries done: 2 stored');
    await shot(tab, 'cache-sitemap-receipt');
    await context.close();
  }, 90_000);

  it('shows the alerts delivery log page', async () => {
    const { context, page: tab } = await freshPage();
    await signInWithToken(tab, api, manager, '/w/demo/alerts');
    await tab.getByRole('heading', { name: 'Alerts' }).waitFor();
    await tab.getByRole('table', { name: 'Webhook deliveries' }).waitFor();
    expect(await tab.getByRole('alert').count()).toBe(0);
    await shot(tab, 'alerts');
    expect(await seriousViolations(tab)).toEqual([]);
    await context.close();
  });

  it('gives a readonly user the Cache page to search, without recache, sitemap or invalidate controls', async () => {
    const { context, page: tab } = await freshPage();
    await signInWithToken(tab, api, readonly, '/w/demo/cache');
    await tab.getByRole('heading', { name: 'Search cache entries' }).waitFor();
    expect(await tab.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Cache' }).count()).toBe(1);
    for (const name of ['Recache', 'Recache sitemap', 'Count matching entries (dry run)', 'Invalidate']) expect(await tab.getByRole('button', { name, exact: true }).count()).toBe(0);
    await tab.getByLabel('URL prefix').fill(page('/fine-'));
    await tab.getByRole('button', { name: 'Search' }).click();
    await tab.getByTestId('entries-total').waitFor();
    await shot(tab, 'cache-readonly-search');
    await context.close();
  });
});
