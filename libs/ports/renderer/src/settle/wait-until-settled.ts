import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { Page } from 'puppeteer-core';
import { PageFailure, untilAborted } from '../fetched-page';
import type { PageActivityWatch } from './page-activity';
import { busyReason, settleVerdict, type SettleRules, type SettleStage } from './settle-rules';

/** How often a page holding `window.prerenderReady` false is asked again. */
const PRERENDER_READY_POLL_MS = 50;

/**
 * Resolves once the page's main thread has run what it had queued (an idle
 * period, at most 1 s away), with the page's `window.prerenderReady`: on a
 * loaded machine the page may not yet have handled the answers the network
 * quiet began with.
 */
const IDLE_THEN_READY = `new Promise((resolve) => {
  const ready = () => resolve(window.prerenderReady === false ? false : true);
  typeof requestIdleCallback === 'function' ? requestIdleCallback(ready, { timeout: 1000 }) : setTimeout(ready, 0);
})`;

/**
 * Resolves when the page is done by the host's rules: the network is quiet
 * (see `settleVerdict`), checked on Node's timers as request events arrive
 * from the browser, so that a page whose main thread is starved makes the
 * check neither late nor early; then the page's main thread has handled what
 * it had queued, without a new request; then, when honoured,
 * `window.prerenderReady` is no longer `false`. On `signal` it throws a
 * `PageFailure` saying what the page was still doing.
 */
export async function waitUntilSettled(page: Page, watch: PageActivityWatch, rules: SettleRules, signal: AbortSignal): Promise<void> {
  let stage: SettleStage = 'network';
  // Once a probe found `prerenderReady` false, the probes after it ask that again: time running out during one is the page holding it false.
  let heldNotReady = false;
  const timedOut = (): PageFailure => new PageFailure(`timed out: ${busyReason(watch.activity(), performance.now(), rules, stage)}`);
  for (;;) {
    stage = 'network';
    await quiet(watch, rules, signal, timedOut);
    stage = heldNotReady ? 'prerender-ready' : 'main-thread';
    const quietSince = watch.activity().lastActivityAt;
    const ready = await untilAborted(page.evaluate(IDLE_THEN_READY) as Promise<boolean>, signal).catch((error: unknown) => {
      throw signal.aborted ? timedOut() : error;
    });
    // The page's queued work started a request: wait for the network again.
    if (watch.activity().lastActivityAt !== quietSince) continue;
    if (ready || !rules.prerenderReady) return;
    heldNotReady = true;
    stage = 'prerender-ready';
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
