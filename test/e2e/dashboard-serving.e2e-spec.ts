import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, removeTestDataDir, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { buildDashboard, launchChromium } from './dashboard-fixtures';

describe('dashboard: built, served at / by the public-api app, and opening in Chromium', () => {
  let running: RunningApps;
  let api: string;
  let browser: Browser;

  beforeAll(async () => {
    buildDashboard();
    running = await startApps(standaloneApps, testConfig('standalone'), createLogger('warn', 'e2e-dashboard-serving'));
    api = running.urls['public-api']!;
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  it('answers its page for client routes with the security headers, and leaves API paths to the API', async () => {
    const page = await fetch(`${api}/w/demo/explorer?mode=comparison`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toMatch(/default-src 'self'.*frame-ancestors 'none'/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    const html = await page.text();
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/); // no inline script
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1]!;
    const script = await fetch(`${api}${asset}`);
    expect(script.headers.get('cache-control')).toContain('immutable');
    // React's production build, though jest (NODE_ENV=test) ran the build: only it carries the minified error texts.
    expect(process.env.NODE_ENV).toBe('test');
    expect(await script.text()).toContain('Minified React error');
    const unknown = await fetch(`${api}/api/nothing-here`);
    expect(unknown.status).toBe(404);
    expect((await jsonOf(unknown)).code).toBe('NOT_FOUND');
  });

  it('renders the sign-in page with no script error, no CSP violation and no serious accessibility violation', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
    });
    await page.goto(`${api}/sign-in`);
    await page.getByRole('heading', { name: 'Sign in' }).waitFor({ timeout: 20_000 });
    expect(await page.getByLabel('API token').getAttribute('type')).toBe('password');
    await page.evaluate(readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
    const violations = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }).axe;
      return (await axe.run()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
    });
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});
