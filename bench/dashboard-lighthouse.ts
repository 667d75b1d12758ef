import lighthouse, { type Config } from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from 'playwright-core';
import type { BenchRow } from './bench-row';
import { CHROMIUM } from './render-contestants';
import { upperMedian } from './stats';
import { freePort } from '../test/harness/engines';

const BROWSER_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

export type LighthouseProfile = 'desktop' | 'mobile';

/** Lighthouse's performance figures of one page on one profile (simulated throttling, Lighthouse's defaults): each the median of the runs. */
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
export async function lighthouseFigures(api: string, token: string, paths: readonly string[], runs: number): Promise<LighthouseFigures[]> {
  const cookie = await sessionCookie(api, token);
  const port = await freePort();
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...BROWSER_ARGS, `--remote-debugging-port=${port}`] });
  try {
    const figures: LighthouseFigures[] = [];
    for (const path of paths) {
      for (const profile of ['desktop', 'mobile'] as const) {
        const measured: LighthouseFigures[] = [];
        for (let run = 0; run < runs; run++) measured.push(await lighthouseRun(`${api}${path}`, port, cookie, profile));
        figures.push({
          path,
          profile,
          performance: upperMedian(measured.map((f) => f.performance)),
          lcpMs: upperMedian(measured.map((f) => f.lcpMs)),
          cls: upperMedian(measured.map((f) => f.cls)),
        });
      }
    }
    return figures;
  } finally {
    await browser.close();
  }
}

/** One Lighthouse run of `url` in the browser at `port`. */
async function lighthouseRun(url: string, port: number, cookie: string, profile: LighthouseProfile): Promise<LighthouseFigures> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', extraHeaders: { Cookie: cookie } }, PROFILES[profile]);
  if (!result) throw new Error(`lighthouse gave no result for ${url} (${profile})`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`lighthouse on ${url} (${profile}): ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  return {
    path: new URL(url).pathname,
    profile,
    performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    lcpMs: lhr.audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    cls: lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
  };
}

/** The dashboard's session cookie (`name=value`) for `token`, as `POST /api/session` sets it. */
async function sessionCookie(api: string, token: string): Promise<string> {
  const response = await fetch(`${api}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
  if (!response.ok) throw new Error(`sign-in: ${response.status} ${await response.text()}`);
  const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]!);
  if (cookies.length === 0) throw new Error('sign-in set no cookie');
  return cookies.join('; ');
}

/** The targets: CLS under 0.1 on both profiles, mobile LCP at most 2.5 s, desktop performance at least 90. */
const CLS_BELOW = 0.1;
const MOBILE_LCP_MAX_MS = 2500;
const DESKTOP_PERFORMANCE_MIN = 90;

/** Bench rows of the figures, each with its target; `title` names a page's path (`/w/demo/search` → "Search"). */
export function lighthouseRows(figures: readonly LighthouseFigures[], title: (path: string) => string, about: string): BenchRow[] {
  return figures.flatMap((f): BenchRow[] => {
    const name = (figure: string) => `dashboard Lighthouse ${title(f.path)}, ${f.profile}: ${figure}, ${about}`;
    const cls: BenchRow = { name: name('CLS'), value: f.cls, unit: '', target: `< ${CLS_BELOW}`, pass: f.cls < CLS_BELOW };
    return f.profile === 'desktop'
      ? [{ name: name('performance score'), value: f.performance, unit: '', target: `>= ${DESKTOP_PERFORMANCE_MIN}`, pass: f.performance >= DESKTOP_PERFORMANCE_MIN }, cls]
      : [{ name: name('LCP'), value: f.lcpMs, unit: 'ms', target: `<= ${MOBILE_LCP_MAX_MS} ms`, pass: f.lcpMs <= MOBILE_LCP_MAX_MS }, cls];
  });
}
