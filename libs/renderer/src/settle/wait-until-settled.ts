import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { Page } from 'puppeteer-core';
import { PageFailure, untilAborted } from '../fetched-page';
import type { PageActivityWatch } from './page-activity';
import { busyReason, settleVerdict, type SettleRules } from './settle-rules';

/** How often a page holding `window.prerenderReady` false is asked again. */
const PRERENDER_READY_POLL_MS = 50;

/**
 * Resolves when the page is done by the host's rules (see `settleVerdict`),
 * then, when honoured, once `window.prerenderReady` is no longer `false`.
 * Checked on Node's timers as request events arrive from the browser, so a
 * starved page main thread delays neither the check nor the snapshot beyond
 * its own work. On `signal` it throws a `PageFailure` saying what the page was
 * still doing.
 */
export async function waitUntilSettled(page: Page, watch: PageActivityWatch, rules: SettleRules, signal: AbortSignal): Promise<void> {
  let readyFalse = false;
  const timedOut = (): PageFailure => new PageFailure(`timed out: ${busyReason(watch.activity(), performance.now(), rules, readyFalse)}`);
  await quiet(watch, rules, signal, timedOut);
  if (!rules.prerenderReady) return;
  for (;;) {
    const ready = await untilAborted(page.evaluate('window.prerenderReady') as Promise<unknown>, signal).catch((error: unknown) => {
      throw signal.aborted ? timedOut() : error;
    });
    if (ready !== false) return;
    readyFalse = true;
    await delay(PRERENDER_READY_POLL_MS, undefined, { signal }).catch(() => {
      throw timedOut();
    });
  }
}

function quiet(watch: PageActivityWatch, rules: SettleRules, signal: AbortSignal, timedOut: () => PageFailure): Promise<void> {
  if (signal.aborted) return Promise.reject(timedOut());
  return new Promise<void>((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const finish = (error?: PageFailure): void => {
      clearTimeout(timer);
      watch.onChange(() => undefined);
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    const onAbort = (): void => finish(timedOut());
    const check = (): void => {
      clearTimeout(timer);
      const now = performance.now();
      const verdict = settleVerdict(watch.activity(), now, rules);
      if (verdict.kind === 'quiet') return finish();
      if (Number.isFinite(verdict.checkAt)) timer = setTimeout(check, Math.max(0, verdict.checkAt - now));
    };
    signal.addEventListener('abort', onAbort, { once: true });
    watch.onChange(check);
    check();
  });
}
