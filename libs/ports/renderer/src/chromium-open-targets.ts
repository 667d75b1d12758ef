import { readFile } from 'node:fs/promises';
import path from 'node:path';
import puppeteer from 'puppeteer-core';

/** What a running Chromium holds open. */
export interface OpenTargets {
  /** Browser contexts besides the default one (the pool makes one per render). */
  readonly contexts: number;
  /** Page targets in any context: tabs and popups. */
  readonly pages: number;
}

/**
 * Asks the Chromium of process `pid` what it holds open, over its own
 * DevTools endpoint as a second client attached to no page: what a leaked
 * tab, popup or context would leave behind, seen from outside the pool.
 */
export async function openTargets(pid: number): Promise<OpenTargets> {
  const browser = await puppeteer.connect({ browserWSEndpoint: await devToolsEndpoint(pid), targetFilter: () => false });
  try {
    const session = await browser.target().createCDPSession();
    const [{ targetInfos }, { browserContextIds }] = await Promise.all([session.send('Target.getTargets'), session.send('Target.getBrowserContexts')]);
    return { contexts: browserContextIds.length, pages: targetInfos.filter((target) => target.type === 'page').length };
  } finally {
    await browser.disconnect();
  }
}

/** Chromium writes the port and path of its DevTools endpoint into its profile directory, named on its command line. */
async function devToolsEndpoint(pid: number): Promise<string> {
  const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
  const profile = args.find((arg) => arg.startsWith('--user-data-dir='))?.slice('--user-data-dir='.length);
  if (!profile) throw new Error(`process ${pid} is not a Chromium with a profile directory`);
  const [port, browserPath] = (await readFile(path.join(profile, 'DevToolsActivePort'), 'utf8')).trim().split('\n');
  return `ws://127.0.0.1:${port}${browserPath}`;
}
