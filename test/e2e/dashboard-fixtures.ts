import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const root = path.resolve(__dirname, '../..');
const BROWSER_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

/** The stamped dashboard build (scripts/build-dashboard.mjs): a no-op when dist/dashboard matches the sources. */
export function buildDashboard(): void {
  execFileSync(process.execPath, [path.join(root, 'scripts/build-dashboard.mjs')], { cwd: root, stdio: 'pipe' });
}

/** Debian's headless Chromium, driven by playwright-core (docs/dashboard.md). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: BROWSER_ARGS });
}
