import { createServer } from 'node:net';
import lighthouse, { type Config } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import { CHROMIUM } from './render-contestants';

const BROWSER_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

export type LighthouseProfile = 'desktop' | 'mobile';

/** Lighthouse's performance figures of one page on one profile (simulated throttling, Lighthouse's defaults). */
export interface LighthouseFigures {
  readonly path: string;
  readonly profile: LighthouseProfile;
  /** The performance score, 0 to 100. */
  readonly performance: number;
  readonly lcpMs: number;
  readonly cls: number;
}

/** Performance only: accessibility and best practices are checked by the e2e journeys (axe-core), and each category costs a run's time. */
const PROFILES: Record<LighthouseProfile, Config> = {
  mobile: { extends: 'lighthouse:default', settings: { onlyCategories: ['performance'] } },
  desktop: { ...desktopConfig, settings: { ...desktopConfig.settings, onlyCategories: ['performance'] } },
};

/**
 * Lighthouse 12 on each dashboard page (`paths`, e.g. `/w/demo/search`) on
 * the desktop and mobile profiles, signed in with `token`: the session
 * cookie travels as an extra header on every request, the page's API calls
 * included, as a browser that signed in would send it.
 */
export async function lighthouseFigures(api: string, token: string, paths: readonly string[]): Promise<LighthouseFigures[]> {
  const cookie = await sessionCookie(api, token);
  const port = await freePort();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...BROWSER_ARGS, `--remote-debugging-port=${port}`] });
  try {
    const figures: LighthouseFigures[] = [];
    for (const path of paths) {
      for (const profile of ['desktop', 'mobile'] as const) {
        const result = await lighthouse(`${api}${path}`, { port, output: 'json', logLevel: 'error', extraHeaders: { Cookie: cookie } }, PROFILES[profile]);
        if (!result) throw new Error(`lighthouse gave no result for ${path} (${profile})`);
        const { lhr } = result;
        if (lhr.runtimeError) throw new Error(`lighthouse on ${path} (${profile}): ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
        figures.push({
          path,
          profile,
          performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
          lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
          cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
        });
      }
    }
    return figures;
  } finally {
    await browser.close();
  }
}

/** The dashboard's session cookie (`name=value`) for `token`, as `POST /api/session` sets it. */
async function sessionCookie(api: string, token: string): Promise<string> {
  const response = await fetch(`${api}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  if (!response.ok) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]!);
  if (cookies.length === 0) throw new Error('sign-in set no cookie');
  return cookies.join('; ');
}

/** A port free on loopback now, for Chromium's DevTools endpoint that Lighthouse connects to. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
