import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { envelope, RENDER_EVENT_CATALOG, RENDER_RECORDED, type RenderRecordedPayload, TOPICS } from '@bpc/events';
import { insertBulkBotRequests, jsonOf, removeTestDataDir, TEST_INTERNAL_KEY, testConfig, until } from '@bpc/testing';
import { factsWith } from '../../libs/core/domain/src/pages/page-facts.fixtures';
import { runCli } from '../../apps/cli/src/run-cli';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { buildDashboard, launchChromium, seriousViolations, signInWithToken } from './dashboard-fixtures';
import { botRequest, issueToken, recordAndWait } from './explorer-fixtures';

/** Enough rows on the `shop` website that an export of them still runs while the dashboard asks for the slot. */
const BULK_ROWS = 300_000;
/** Where the journeys leave their screenshots (each page as people see it): DASHBOARD_SHOTS, else a temporary directory. */
const SHOTS = process.env.DASHBOARD_SHOTS ?? mkdtempSync(path.join(tmpdir(), 'dashboard-shots-'));

/**
 * The dashboard in real headless Chromium against the real standalone service
 * (sessions, insights, exports and queue endpoints included): people's
 * journeys, and an accessibility scan of every page.
 */
describe('dashboard journeys in Chromium', () => {
  let running: RunningApps;
  let api: string;
  let browser: Browser;
  let manager: string;
  let readonly: string;
  let origin: Server;
  const hour = 3_600_000;

  beforeAll(async () => {
    buildDashboard();
    const websites = [
      { id: 'demo', host_id: 1, account_id: 'acme' },
      // The same account (one export slot); after demo in the session's list, so demo stays the first page.
      { id: 'shop', host_id: 1, account_id: 'acme' },
    ];
    // The site's origin answers its robots.txt (the AI agents page reads it): ChatGPT-User kept out of /p1, GPTBot out of everything.
    origin = createServer((req, res) => {
      if (req.url === '/robots.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: ChatGPT-User\nDisallow: /p1\n\nUser-agent: GPTBot\nDisallow: /\n');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const hosts = [
      {
        host_id: 1,
        hostnames: ['www.example.com'],
        origin: `http://127.0.0.1:${(origin.address() as AddressInfo).port}`,
        dimensions: [
          { id: 1, name: 'desktop', match: { fallback: true } },
          { id: 2, name: 'mobile', match: { user_agent: 'Mobile' } },
        ],
        url_rules: [{ pattern: '^/admin/', action: 'ignore' }],
      },
    ];
    running = await startApps(standaloneApps, testConfig('standalone', { scheduler: { enabled: false }, websites, hosts }), createLogger('warn', 'e2e-dashboard-journeys'));
    api = running.urls['public-api']!;
    manager = (await issueToken(api, { user: 'alice', website: 'demo', role: 'manager' })).token;
    await issueToken(api, { user: 'alice', website: 'shop', role: 'readonly' });
    readonly = (await issueToken(api, { user: 'rita', website: 'demo', role: 'readonly' })).token;
    const now = Date.now();
    // 30 requests over 3 pages in the last 3 days: one 404 among them; every fifth by an AI assistant (two on each page), every tenth of
    // them on a page robots.txt disallowed it (one on each page); four claims of Googlebot proven false (two of them misses, rendered).
    const reader = (i: number) =>
      i % 5 === 0
        ? { botName: 'ChatGPT-User', botCategory: 'ai_assistant' as const, botOperator: 'OpenAI', verified: 'yes' as const, robotsAllowed: i % 10 === 0 ? ('no' as const) : ('yes' as const) }
        : { botCategory: 'search' as const, botOperator: 'Google', verified: i % 7 === 1 ? ('no' as const) : ('yes' as const), robotsAllowed: 'yes' as const };
    const events = Array.from({ length: 30 }, (_, i) =>
      botRequest('demo', new Date(now - (i + 1) * 2 * hour), { url: `https://www.example.com/p${i % 3}`, statusCode: i === 0 ? 404 : 200, cacheStatus: i % 2 ? 'hit' : 'miss', ...reader(i) }),
    );
    await recordAndWait(running, events, 'demo', 30);
    await recordRendersWithFacts(now);
    await insertBulkBotRequests(running.runtime.ports.explorerStore!, 'shop', BULK_ROWS, now - 60_000);
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    origin?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  /**
   * What the renderer records for the three pages (desktop): /p0 rendered
   * twice, the second time with `noindex` (a critical change), /p1 with no
   * title and few words, /p2 healthy.
   */
  async function recordRendersWithFacts(now: number): Promise<void> {
    const url = (n: number) => `https://www.example.com/p${n}`;
    // A title of its own (the same title on two URLs is an issue too).
    const healthy = (n: number) => factsWith({ canonical: url(n), canonicals: [url(n)], title: `Page ${n} – Example`, titleLength: 16 });
    const render = (id: string, at: number, n: number, extra: Pick<RenderRecordedPayload, 'facts' | 'changes'>) =>
      envelope(
        RENDER_RECORDED,
        RENDER_EVENT_CATALOG[RENDER_RECORDED].version,
        { hostId: 1, url: url(n), dimensionId: 1, mode: 'render', trigger: 'autorecache', outcome: 'stored', reason: '', statusCode: 200, renderMs: 900, bytes: 24_000, attempt: 1, ...extra },
        { id, occurredAt: new Date(at), key: '1' },
      );
    await running.runtime.ports.eventLog!.append(TOPICS.renders, [
      render('seo-p0-1', now - 50 * hour, 0, { facts: healthy(0) }),
      render('seo-p1-1', now - 49 * hour, 1, { facts: factsWith({ canonical: url(1), canonicals: [url(1)], title: null, titleLength: 0, wordCount: 40 }) }),
      render('seo-p2-1', now - 48 * hour, 2, { facts: healthy(2) }),
      render('seo-p0-2', now - 20 * hour, 0, { facts: factsWith({ ...healthy(0), noindexBy: ['robots'] }), changes: [{ field: 'noindex', before: 'false', after: 'true', severity: 'critical' }] }),
    ]);
    const count = async (table: string) => Number((await running.runtime.ports.explorerStore!.query<{ n: number }>(`SELECT count() AS n FROM ${table} FINAL`))[0]!.n);
    await until(async () => (await count('pages')) === 3 && (await count('page_changes')) === 1, { what: () => 'the renders\' facts in the explorer' });
  }

  async function freshPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ acceptDownloads: true });
    return { context, page: await context.newPage() };
  }

  /** A full-page screenshot into SHOTS, named after the page it shows. */
  async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  }

  it('signs in with a token and comes back to the view it came from; a query with a filter and a sort; a refusal at its control', async () => {
    const { context, page } = await freshPage();
    await signInWithToken(page, api, manager, '/w/demo/explorer?mode=unique_pages&period=7d');
    await page.waitForURL(/\/w\/demo\/explorer\?mode=unique_pages&period=7d$/);
    await page.getByRole('columnheader', { name: /Requests/ }).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(3);

    await page.getByRole('button', { name: 'Page', exact: true }).click();
    await page.waitForURL(/sort=page&sortDir=desc/);
    await page.getByRole('button', { name: 'Add filter' }).click();
    await page.locator('#filter-0-val').fill('/p1');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/f=/);
    await page.getByText('1 rows', { exact: false }).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    await shot(page, 'explorer-filter-and-sort');
    await expect(page.locator('tbody tr td').first().innerText()).resolves.toContain('https://www.example.com/p1');

    await page.locator('#filter-0-field').selectOption('status_code');
    await page.locator('#filter-0-val').fill('abc');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.locator('#filter-0-val[aria-invalid="true"]').waitFor();
    expect(await page.locator('#filter-0-val').locator('xpath=..').getByRole('alert').innerText()).toMatch(/number/);
    await shot(page, 'explorer-refusal-at-its-control');
    await context.close();
  });

  it('signs in with a one-time link printed by the CLI, which then cannot be used again', async () => {
    const out: string[] = [];
    expect(await runCli(['dashboard', 'link', '--user', 'alice', '--url', api], { env: { BPC_INTERNAL_KEY: TEST_INTERNAL_KEY }, out: (l) => out.push(l), err: () => undefined })).toBe(0);
    const link = /#link=(\S+)/.exec(out.join('\n'))![1]!;
    const { context, page } = await freshPage();
    await page.goto(`${api}/sign-in#link=${link}`);
    await page.waitForURL(/\/w\/demo$/);
    expect(page.url()).not.toContain(link);
    await context.close();
    const again = await freshPage();
    await again.page.goto(`${api}/sign-in#link=${link}`);
    await again.page.getByRole('alert').first().waitFor();
    await shot(again.page, 'sign-in-link-used-twice');
    expect(again.page.url()).toMatch(/\/sign-in/);
    await again.context.close();
  });

  it('shows the overview figures the API answers for the same window', async () => {
    const { context, page } = await freshPage();
    await signInWithToken(page, api, manager, '/w/demo?period=7d');
    await page.getByText('Bot requests', { exact: true }).waitFor();
    const summary = await jsonOf(
      await fetch(`${api}/api/websites/demo/insights/summary`, { method: 'POST', headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' }, body: JSON.stringify({ period: '7d' }) }),
    );
    const card = (label: string) => page.locator('.card', { hasText: label }).locator('.kpi-value').innerText();
    expect(await card('Bot requests')).toBe(String(summary.data.current.requests));
    expect(await card('Pages crawled')).toBe(String(summary.data.current.pages));
    await page.getByRole('heading', { name: 'Top pages' }).waitFor();
    // Who reads: the categories and the AI agents' pages, as the API answers them.
    const readers = (
      await jsonOf(
        await fetch(`${api}/api/websites/demo/insights/bot-categories`, { method: 'POST', headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' }, body: JSON.stringify({ period: '7d' }) }),
      )
    ).data;
    expect(readers.aiAgents).toEqual({ requests: 6, share: 0.2, pages: 3 });
    await page.getByRole('heading', { name: 'Who reads' }).waitFor();
    await page.getByText(/AI agents made 6 requests for 3 pages, 20% of bot requests/).waitFor();
    const categories = page.getByRole('table', { name: 'Bot requests by category' });
    expect(await categories.getByRole('row', { name: /AI assistant/ }).innerText()).toMatch(/AI assistant\s+6\s+20%\s+3/);
    expect(await page.getByRole('table', { name: 'The pages each kind of AI agent read most' }).getByRole('link').allInnerTexts()).toEqual(['/p0', '/p1', '/p2']);
    await categories.getByRole('link', { name: 'AI assistant', exact: true }).click();
    await page.waitForURL(/\/explorer\?/);
    await page.getByText('6 rows', { exact: false }).waitFor();
    await page.goBack();
    await page.getByRole('heading', { name: 'Who reads' }).waitFor();
    await shot(page, 'overview');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it("shows the AI agents page: the robots.txt's verdicts, crawling disallowed pages anyway and spoofed bots as the API answers, leading to the explorer's rows", async () => {
    const { context, page } = await freshPage();
    await signInWithToken(page, api, manager, '/w/demo');
    await page.getByRole('link', { name: 'AI agents', exact: true }).click();
    await page.waitForURL(/\/w\/demo\/ai-agents$/);
    await page.getByRole('heading', { name: 'AI crawlers and robots.txt' }).waitFor();
    const answer = await jsonOf(
      await fetch(`${api}/api/websites/demo/insights/ai-crawlers`, { method: 'POST', headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' }, body: JSON.stringify({ period: '7d' }) }),
    );
    const { summary, spoofed } = answer.data;
    expect(summary).toMatchObject({ namedInRobotsTxt: 2, agentsSeen: 1, requests: 6, disallowedRequests: 3, agentsIgnoringRobotsTxt: 1 });
    expect(summary.blocked).toBeGreaterThanOrEqual(1);
    await page.getByText(`blocks ${summary.blocked}.`, { exact: false }).waitFor();
    const table = page.getByRole('table', { name: /AI agents that read the site/ });
    expect(await table.getByRole('row', { name: /ChatGPT-User/ }).innerText()).toMatch(/ChatGPT-User\s+OpenAI\s+AI assistant\s+Partly disallowed\s+\/p1\s+named in robots\.txt\s+6\s+3/);
    expect(await table.getByRole('row', { name: /GPTBot/ }).innerText()).toMatch(/GPTBot\s+OpenAI\s+AI training\s+Blocked\s+named in robots\.txt\s+0\s+0/);
    expect(spoofed).toMatchObject({ requests: 4, rendersAvoided: 0, rendersCaused: 2, topClaimedBots: [{ bot: 'Googlebot', requests: 4 }] });
    await page.getByText(/4 requests claimed to be a bot they were proven not to be/).waitFor();
    await shot(page, 'ai-agents');
    expect(await seriousViolations(page)).toEqual([]);
    await table.getByRole('link', { name: '3 disallowed requests by ChatGPT-User' }).click();
    await page.waitForURL(/\/explorer\?/);
    await page.getByText('3 rows', { exact: false }).waitFor();
    await context.close();
  });

  it("shows SEO health as the API answers it: issues by severity, the issue list leading to the explorer's rows, the changes feed, and one page's facts against before and its history; from the Renders page too", async () => {
    const { context, page } = await freshPage();
    await signInWithToken(page, api, manager, '/w/demo');
    await page.getByRole('link', { name: 'SEO health', exact: true }).click();
    await page.waitForURL(/\/w\/demo\/seo$/);
    const answer = await jsonOf(
      await fetch(`${api}/api/websites/demo/insights/seo`, { method: 'POST', headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' }, body: JSON.stringify({ period: '30d' }) }),
    );
    expect(answer.data).toMatchObject({ pages: 3, pagesWithIssues: { critical: 1, warning: 1 }, changes: { critical: 1, warning: 0, notice: 0 } });
    const card = (label: string) => page.locator('.card', { hasText: label }).locator('.kpi-value').innerText();
    await page.getByRole('table', { name: /Issues pages have now/ }).waitFor();
    expect(await card('Critical issues')).toBe('1 pages');
    expect(await card('Warning issues')).toBe('1 pages');
    const issues = page.getByRole('table', { name: /Issues pages have now/ });
    // The examples come from a second query: wait for them, not for the '…' shown meanwhile.
    await issues.getByRole('link', { name: '/p0' }).waitFor();
    expect(await issues.getByRole('row', { name: /noindex/ }).innerText()).toMatch(/noindex\s+Bots are told not to index this page[^\n]*\s+Critical\s+1\s+\/p0/);
    expect(await issues.getByRole('row', { name: /title_missing/ }).innerText()).toMatch(/Warning\s+1\s+\/p1/);
    const feed = page.getByRole('table', { name: /Changes in the period, most severe first/ });
    expect(await feed.getByRole('row').nth(1).innerText()).toMatch(/\/p0\s+desktop\s+noindex\s+.?false.?\s+→\s+.?true.?\s+Critical/);
    await shot(page, 'seo-health');
    expect(await seriousViolations(page)).toEqual([]);

    await issues.getByRole('link', { name: '1 pages with noindex in the explorer' }).click();
    await page.waitForURL(/\/explorer\?/);
    await page.getByText('1 rows', { exact: false }).waitFor();
    await page.goBack();
    await issues.getByRole('link', { name: '/p0' }).click();
    await page.waitForURL(/\/w\/demo\/seo\/page\?url=/);
    const facts = page.getByRole('table', { name: /Facts now/ });
    await facts.waitFor();
    expect(await facts.getByRole('row', { name: /Indexing/ }).innerText()).toMatch(/Indexing\s+noindex \(robots\)\s+indexable/);
    await page.getByText('Urgent: this page says noindex, yet bots requested it in the period.').waitFor();
    // The period's bot requests as the pages explorer counts them (whole days: today is left out).
    const row = await jsonOf(
      await fetch(`${api}/api/websites/demo/data-explorer/pages/query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' },
        body: JSON.stringify({ period: '30d', columns: ['url', 'requests'], filters: [{ field: 'url', op: 'equals', val: 'https://www.example.com/p0' }] }),
      }),
    );
    expect(row.data[0].requests).toBeGreaterThan(0);
    expect(await page.locator('.cards > .card', { hasText: 'Bot requests in the period' }).locator('.figure-value').innerText()).toBe(String(row.data[0].requests));
    expect(await page.getByRole('table', { name: /Changes of https:\/\/www.example.com\/p0/ }).getByRole('row').count()).toBe(2);
    await shot(page, 'seo-page');
    expect(await seriousViolations(page)).toEqual([]);

    // The Renders page leads to a page's SEO view.
    await page.goto(`${api}/w/demo/renders?show=all&period=7d`);
    await page.getByRole('link', { name: 'SEO health of https://www.example.com/p1' }).first().click();
    await page.waitForURL(/\/seo\/page\?url=https%3A%2F%2Fwww.example.com%2Fp1/);
    await page.getByRole('table', { name: /Facts now/ }).waitFor();
    await context.close();
  });

  it('exports from the explorer to a downloaded CSV whose rows match, listed in the history', async () => {
    const { context, page } = await freshPage();
    await signInWithToken(page, api, manager, '/w/demo/explorer?period=7d');
    await page.getByRole('columnheader', { name: /Bot/ }).waitFor();
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const link = page.getByRole('link', { name: /^Download / });
    await link.waitFor({ timeout: 60_000 });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    const csv = readFileSync((await download.path())!, 'utf8').trim().split(/\r?\n/);
    expect(csv.length - 1).toBe(30);
    await shot(page, 'explorer-export-ready');
    await page.getByRole('link', { name: 'All your exports' }).click();
    await page.getByRole('cell', { name: 'Dashboard' }).waitFor();
    await shot(page, 'exports');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('a 409 while an API-started export holds the slot names the holder, shows it running and opens it', async () => {
    const { context, page } = await freshPage();
    // Not the question the export journey asked: the API answers a repeated question with its export, without the slot.
    await signInWithToken(page, api, manager, '/w/demo/explorer?period=24h');
    await page.getByRole('columnheader', { name: /Bot/ }).waitFor();
    // An API export of the account's other website takes the slot; the dashboard asks for it while it runs.
    const held = await jsonOf(
      await fetch(`${api}/api/websites/shop/data-explorer/events/export`, { method: 'POST', headers: { authorization: `Bearer ${manager}`, 'content-type': 'application/json' }, body: JSON.stringify({ filename: 'held', waitSeconds: 0 }) }),
    );
    expect(held).toMatchObject({ status: 'running', startedFrom: 'api' });
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByText(`export #${held.exportId} on website shop holds the slot`).waitFor();
    // Its status, live: running, or ready by now on a fast machine.
    await page.getByText(new RegExp(`Export #${held.exportId} is (running|ready)`)).waitFor();
    await shot(page, 'explorer-export-slot-busy');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: `Open export #${held.exportId} in your exports` }).click();
    await page.waitForURL(new RegExp(`/w/shop/exports\\?open=${held.exportId}$`));
    await page.getByRole('link', { name: 'Download held.csv' }).waitFor({ timeout: 60_000 });
    await shot(page, 'exports-open-holder');
    await context.close();
  }, 120_000);

  it('recaches with the queue counts moving; a readonly user sees no recache controls and the API refuses the call', async () => {
    const { context, page } = await freshPage();
    await signInWithToken(page, api, manager, '/w/demo/cache');
    const total = page.getByTestId('queue-normal-total');
    await total.waitFor();
    const before = Number((await total.innerText()).replace(/\D/g, ''));
    await page.getByLabel('URLs').first().fill('https://www.example.com/new-1\nhttps://elsewhere.example/x');
    await page.getByRole('button', { name: 'Recache', exact: true }).click();
    await page.getByText(/^Line 2 /).waitFor();
    // In words: the line and the URL, not the API's parameter name.
    expect(await page.getByText(/^Line 2 /).innerText()).not.toContain('urls[');
    await page.getByLabel('URLs').first().fill('https://www.example.com/new-1\nhttps://www.example.com/new-2');
    await page.getByRole('button', { name: 'Recache', exact: true }).click();
    await page.getByText(/URLs accepted/).waitFor();
    // Evaluated in the page (a string: this project's types have no DOM).
    await page.waitForFunction(`Number(document.querySelector('[data-testid="queue-normal-total"]').textContent.replace(/\\D/g, '')) > ${before}`);
    await shot(page, 'cache');
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();

    const reader = await freshPage();
    await signInWithToken(reader.page, api, readonly, '/w/demo/cache');
    await reader.page.getByRole('heading', { name: 'Render queue' }).waitFor();
    expect(await reader.page.getByRole('button', { name: 'Recache', exact: true }).count()).toBe(0);
    await shot(reader.page, 'cache-readonly');
    // The Cache page reads for every role (queue, entry search and lookup, issue 32); its controls are the manager's.
    expect(await reader.page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Cache' }).count()).toBe(1);
    expect(await reader.page.getByRole('button', { name: 'Invalidate', exact: true }).count()).toBe(0);
    const session = await jsonOf(await fetch(`${api}/api/session`, { headers: { cookie: (await reader.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') } }));
    const refused = await reader.page.request.post(`${api}/api/websites/demo/cache/recache`, { data: { urls: ['https://www.example.com/'] }, headers: { 'x-csrf-token': session.csrfToken } });
    expect(refused.status()).toBe(403);
    await reader.context.close();
  });

  it('signs out for good; the search page and the sign-in page pass the accessibility scan', async () => {
    const { context, page } = await freshPage();
    await page.goto(`${api}/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await shot(page, 'sign-in');
    expect(await seriousViolations(page)).toEqual([]);
    await signInWithToken(page, api, manager, '/w/demo/search');
    await page.getByRole('heading', { name: 'Keywords' }).waitFor();
    await shot(page, 'search');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    expect((await page.request.get(`${api}/api/session`)).status()).toBe(401);
    await page.goto(`${api}/w/demo/search`);
    await page.waitForURL(/\/sign-in\?next=%2Fw%2Fdemo%2Fsearch/);
    await context.close();
  });
});
