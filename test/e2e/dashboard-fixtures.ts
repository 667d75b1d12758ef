import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

const root = path.resolve(__dirname, '../..');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const BROWSER_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** The stamped dashboard build (scripts/build-dashboard.mjs): a no-op when dist/dashboard matches the sources. */
export function buildDashboard(): void {
  execFileSync(process.execPath, [path.join(root, 'scripts/build-dashboard.mjs')], { cwd: root, stdio: 'pipe' });
}

/** Debian's headless Chromium, driven by playwright-core (docs/dashboard.md). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: BROWSER_ARGS });
}

/** Signs in on the dashboard's sign-in page with an API token, arriving there from `from` (a view that needs a session). */
export async function signInWithToken(page: Page, api: string, token: string, from: string): Promise<void> {
  await page.goto(`${api}${from}`);
  await page.waitForURL(/\/sign-in\?next=/);
  await page.getByLabel('API token').fill(token);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The serious and critical accessibility violations axe-core finds on the page as it is now. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string }[] }> } }).axe;
    return (await axe.run()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
}
