import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM } from './render-contestants';

const root = path.resolve(__dirname, '../..');
const BROWSER_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** The first page's JavaScript, gzipped, as scripts/dashboard-first-page-size.mjs measures it in dist/dashboard (built by `npm run bench`). */
export function firstPageJsGzipBytes(): number {
  const out = execFileSync(process.execPath, [path.join(root, 'scripts/dashboard-first-page-size.mjs'), '--json'], { cwd: root, encoding: 'utf8' });
  return (JSON.parse(out) as { gzipBytes: number }).gzipBytes;
}

/**
 * Renders of a 500-row explorer page in Chromium: the dashboard's own User
 * Timing measure `explorer-rows-render` (from the query's answer to its rows
 * in the DOM), for the first page and then each "Next" page, `renders` in all.
 */
export async function explorerRowsRenderMs(api: string, token: string, website: string, renders: number): Promise<number[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: BROWSER_ARGS });
  try {
    // The page's CSP forbids eval, which string predicates need (this project's types have no DOM for function ones); rendering is the same.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, bypassCSP: true });
    // The context's request shares its cookie jar: the session cookie lands in the browser.
    const signIn = await context.request.post(`${api}/api/session`, { data: { token } });
    if (!signIn.ok()) throw new Error(`sign-in: ${signIn.status()} ${await signIn.text()}`);
    const page = await context.newPage();
    await page.goto(`${api}/w/${encodeURIComponent(website)}/explorer?period=30d&perPage=500`);
    const measures = () => page.evaluate(`performance.getEntriesByName('explorer-rows-render').map((e) => e.duration)`) as Promise<number[]>;
    await page.waitForFunction(`document.querySelectorAll('tbody tr').length === 500 && performance.getEntriesByName('explorer-rows-render').length >= 1`, undefined, { timeout: 120_000 });
    while ((await measures()).length < renders) {
      const seen = (await measures()).length;
      await page.getByRole('button', { name: 'Next' }).click();
      await page.waitForFunction(`performance.getEntriesByName('explorer-rows-render').length > ${seen} && document.querySelectorAll('tbody tr').length === 500`, undefined, { timeout: 120_000 });
    }
    return (await measures()).slice(0, renders);
  } finally {
    await browser.close();
  }
}
