import type { HostDefinition } from '@bpc/domain';

/**
 * When a rendered page is done: the rules, as pure functions of what the tab
 * has seen so far, so that they are tested without a browser and checked on
 * our own timer (a page whose main thread is starved must not make the done
 * signal late, nor early).
 */

/** A host's rules for when its pages are done (`hosts[].render` in the configuration). */
export interface SettleRules {
  /** The network must have been quiet this long (ms) after the load event and the last request. */
  readonly quietMs: number;
  /** A request open longer than this (ms) stops holding the page: a long poll, a beacon that never ends. */
  readonly longRequestMs: number;
  /** Honour `window.prerenderReady`: while the page holds it `false`, the snapshot waits. */
  readonly prerenderReady: boolean;
}

export const DEFAULT_SETTLE_RULES: SettleRules = { quietMs: 300, longRequestMs: 4000, prerenderReady: true };

/** The host's configured rules (`hosts[].render`), or the defaults. */
export function settleRulesOf(host: Pick<HostDefinition, 'render'>): SettleRules {
  const render = host.render;
  if (!render) return DEFAULT_SETTLE_RULES;
  return { quietMs: render.quiet_ms, longRequestMs: render.long_request_ms, prerenderReady: render.prerender_ready };
}

/** Resource types that are open for as long as the page lives: they never hold a page. */
const LONG_LIVED_TYPES = new Set(['eventsource', 'websocket', 'ping']);

export function isLongLivedType(resourceType: string): boolean {
  return LONG_LIVED_TYPES.has(resourceType);
}

/** One request of the page that has not ended. */
export interface OpenRequest {
  readonly url: string;
  readonly startedAt: number;
}

/** What the tab has seen of the page (times in ms on one monotonic clock). */
export interface PageActivity {
  /** When the main document's load event fired; undefined until then. */
  readonly loadedAt: number | undefined;
  /** When a request that holds the page last started or ended. */
  readonly lastActivityAt: number;
  /** Requests open now, but for the long-lived types (those are never recorded). */
  readonly open: Iterable<OpenRequest>;
}

export type SettleVerdict =
  /** The network is quiet: read `prerenderReady` (when honoured), then take the snapshot. */
  | { readonly kind: 'quiet' }
  /** Not yet; look again at `checkAt` at the latest (or sooner, when a request starts or ends). */
  | { readonly kind: 'busy'; readonly checkAt: number; readonly holding: readonly OpenRequest[] };

/**
 * The page is quiet once its load event fired and, for `quietMs`, no request
 * that holds it started or ended and none is open. A request stops holding
 * the page once it has been open `longRequestMs`: from then the page counts
 * as quiet as if it had ended then.
 */
export function settleVerdict(activity: PageActivity, now: number, rules: SettleRules): SettleVerdict {
  const holding: OpenRequest[] = [];
  let quietSince = Math.max(activity.lastActivityAt, activity.loadedAt ?? -Infinity);
  let nextRelease = Infinity;
  for (const request of activity.open) {
    const releasedAt = request.startedAt + rules.longRequestMs;
    if (releasedAt > now) {
      holding.push(request);
      nextRelease = Math.min(nextRelease, releasedAt);
    } else {
      quietSince = Math.max(quietSince, releasedAt);
    }
  }
  if (activity.loadedAt === undefined) return { kind: 'busy', checkAt: Infinity, holding };
  if (holding.length > 0) return { kind: 'busy', checkAt: nextRelease, holding };
  const quietAt = quietSince + rules.quietMs;
  return quietAt <= now ? { kind: 'quiet' } : { kind: 'busy', checkAt: quietAt, holding };
}

/** What a render was waiting for when its time ran out: the network, the page's busy main thread, or `prerenderReady`. */
export type SettleStage = 'network' | 'main-thread' | 'prerender-ready';

/** Why a page was not done when its time ran out, for the render's failure reason. */
export function busyReason(activity: PageActivity, now: number, rules: SettleRules, stage: SettleStage): string {
  if (activity.loadedAt === undefined) return 'the page never finished loading (no load event)';
  if (stage === 'main-thread') return "the page's scripts kept its main thread busy";
  if (stage === 'prerender-ready') return 'the page kept window.prerenderReady false';
  const verdict = settleVerdict(activity, now, rules);
  if (verdict.kind === 'busy' && verdict.holding.length > 0) {
    const first = verdict.holding[0].url;
    return `the page kept loading (${verdict.holding.length} request${verdict.holding.length === 1 ? '' : 's'} open, e.g. ${first.slice(0, 120)})`;
  }
  return 'the page kept making requests';
}
