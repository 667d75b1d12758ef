import { receiptIdOf } from '@bpc/domain';
import { type QueueEvent, RECACHE_GAVE_UP, RECACHE_REQUESTED, RECACHE_RETRY_SCHEDULED, RECACHE_SUCCEEDED, type RecacheAttemptSubject, type RenderOutcome, type RenderRecorded, type RenderTrigger } from '@bpc/events';
import { demoPageFacts } from './demo-page-facts';
import { demoQueueEvent, demoRenderRecorded, seededRandom, serveTime } from './demo-events';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * The demo configuration's scheduler (deploy/config/demo.yaml, scheduler-policy.ts): `recache.max_concurrent`
 * renders at once, `internal_queue.max_retries` attempts, the second 5 s and the third 10 s after a failure, the
 * first claims within a tick of the request.
 */
const SLOTS = 5;
const MAX_ATTEMPTS = 3;
const RETRY_AFTER_MS = [5_000, 10_000] as const;
const FIRST_CLAIM_MS = 400;
/** The demo host's cache dimensions: desktop and mobile. */
const DIMENSIONS = [1, 2] as const;

interface KeptRender {
  readonly outcome: RenderOutcome;
  /** The renderer's words for the rule that kept the old page. */
  readonly reason: string;
}

/** A recache someone asked for, with how its renders went. */
interface DemoRecache {
  /** When it was asked for, from today's UTC midnight. */
  readonly at: number;
  readonly source: 'public-api' | 'sitemap';
  readonly priority: 'high' | 'normal';
  /** Its pages (places in `demoPages`), each one entry per dimension. */
  readonly pages: readonly number[];
  /** Entries whose render kept the old page (`<page>|<dimension>`). */
  readonly kept?: Readonly<Record<string, KeptRender>>;
  /** The origin answered 502 from this long after the request on: attempts begun then fail, and are given up after the last. */
  readonly originDownAfterMs?: number;
}

/** The blog's first twenty posts (`demoPages` lists a post every third page from the sixth). */
const BLOG_POSTS = Array.from({ length: 20 }, (_, i) => 5 + 3 * i);

/**
 * The demo's recaches, each with its receipt:
 * - six days ago at night, a sitemap recache of the blog's first twenty posts
 *   ran into an origin outage (502): the posts rendered before it were stored,
 *   the others failed three times and were given up (the render failures
 *   alert of that night: demo-alerts.ts);
 * - two days ago, twenty minutes after the deploy that put `noindex` on
 *   /features (demo-page-facts.ts), the landing pages at high priority: the
 *   render of /features found the noindex, and /docs on mobile kept its old
 *   page (the render was much smaller);
 * - yesterday, after /pricing's new title, /pricing.
 */
const RECACHES: readonly DemoRecache[] = [
  { at: -6 * DAY_MS + 2 * HOUR_MS + 5 * MINUTE_MS, source: 'sitemap', priority: 'normal', pages: BLOG_POSTS, originDownAfterMs: 6_000 },
  { at: -2 * DAY_MS + 9 * HOUR_MS + 20 * MINUTE_MS, source: 'public-api', priority: 'high', pages: [0, 1, 2, 3, 4], kept: { '3|2': { outcome: 'kept_smaller', reason: "under 30% of the last good page's size" } } },
  { at: -1 * DAY_MS + 8 * HOUR_MS + 10 * MINUTE_MS, source: 'public-api', priority: 'normal', pages: [1] },
];

export interface DemoReceiptOptions {
  readonly hostId: number;
  readonly hostname: string;
  readonly nowMs: number;
  readonly days: number;
  readonly seed: number;
}

/** A receipted recache of the demo, as the daemon and the renderer would have recorded it. */
export interface DemoReceipt {
  readonly receiptId: string;
  /** When it was asked for. */
  readonly requestedAt: number;
  /** The request, then each attempt's outcome (`RecacheRetryScheduled`, `RecacheSucceeded`, `RecacheGaveUp`), in time order: the queue topic's. */
  readonly queue: readonly QueueEvent[];
  /** One render per attempt, carrying the entry id and attempt, at the same moments as the queue's outcomes. */
  readonly renders: readonly RenderRecorded[];
  /** Each entry's span (`<url>|<dimension>`), from the request to its last outcome: the receipt reads the first render that began after the request. */
  readonly spans: ReadonlyMap<string, { readonly from: number; readonly to: number }>;
}

interface Attempt {
  readonly entry: number;
  readonly attempt: number;
  readonly readyAt: number;
}

/**
 * The demo's receipts that fall within its days and are over by now (pure,
 * deterministic for a seed and clock). Each request is recorded `settled`:
 * the queue projection never queues it, since, due at its past time, the
 * live scheduler could claim it (or a live entry of the same key would
 * answer to it) before the outcomes that follow it were applied; the
 * outcomes are still recorded, as the daemon records them.
 */
export function demoReceipts(options: DemoReceiptOptions, pages: readonly { readonly url: string; readonly title: string }[]): DemoReceipt[] {
  const today = Math.floor(options.nowMs / DAY_MS) * DAY_MS;
  const firstDay = today - (options.days - 1) * DAY_MS;
  return RECACHES.flatMap((recache, index) => {
    const requestedAt = today + recache.at;
    if (requestedAt < firstDay) return [];
    const receipt = receiptOf(recache, index, requestedAt, today, options, pages);
    return receipt.queue.at(-1)!.occurredAt <= new Date(options.nowMs).toISOString() ? [receipt] : [];
  });
}

function receiptOf(recache: DemoRecache, index: number, requestedAt: number, today: number, options: DemoReceiptOptions, pages: readonly { readonly url: string; readonly title: string }[]): DemoReceipt {
  const random = seededRandom(options.seed * 7919 + 3 + index);
  const { hostId } = options;
  const receiptId = receiptIdOf(requestedAt, Uint8Array.from({ length: 16 }, () => Math.floor(random() * 256)));
  const entryId = `demo-${options.seed}-receipt-${index}`;
  const entries = recache.pages.flatMap((page) => DIMENSIONS.map((dimensionId) => ({ page, dimensionId, url: pages[page]!.url })));
  const request = demoQueueEvent(
    RECACHE_REQUESTED,
    { hostId, urls: recache.pages.map((page) => pages[page]!.url), dimensionIds: [...DIMENSIONS], priority: recache.priority, source: recache.source, receiptId, settled: true },
    hostId,
    entryId,
    requestedAt,
  );
  // The scheduler's trigger of a claim: a sitemap's entries say so, others their priority.
  const trigger: RenderTrigger = recache.source === 'sitemap' ? 'sitemap' : recache.priority === 'high' ? 'recache_high' : 'recache_normal';
  const queue: QueueEvent[] = [];
  const renders: RenderRecorded[] = [];
  const spans = new Map<string, { from: number; to: number }>();
  const slots: number[] = Array.from({ length: SLOTS }, () => requestedAt + FIRST_CLAIM_MS);
  // Attempts in the order the scheduler would start them: the earliest ready first, on the slot free first.
  const pending: Attempt[] = entries.map((_, entry) => ({ entry, attempt: 1, readyAt: requestedAt + FIRST_CLAIM_MS }));
  while (pending.length > 0) {
    pending.sort((a, b) => a.readyAt - b.readyAt || a.entry - b.entry);
    const { entry, attempt, readyAt } = pending.shift()!;
    const { page, dimensionId, url } = entries[entry]!;
    const slot = slots.indexOf(Math.min(...slots));
    const began = Math.max(slots[slot]!, readyAt);
    const down = recache.originDownAfterMs !== undefined && began >= requestedAt + recache.originDownAfterMs;
    const kept = recache.kept?.[`${page}|${dimensionId}`];
    const renderMs = serveTime(random, down ? 250 : 1600);
    const endedAt = began + renderMs;
    slots[slot] = endedAt;
    const id = `${entryId}-${entry}-${attempt}`;
    const subject: RecacheAttemptSubject = { hostId, url, dimensionId, priority: recache.priority, entryId, attempt, durationMs: renderMs };
    if (down) {
      const retry = attempt < MAX_ATTEMPTS;
      const reason = 'origin answered 502';
      renders.push(demoRenderRecorded(hostId, id, endedAt, { url, dimensionId, trigger, outcome: retry ? 'retry_scheduled' : 'gave_up', reason, statusCode: 0, renderMs, bytes: 0, attempt, entryId }));
      if (retry) {
        const retryAt = endedAt + RETRY_AFTER_MS[attempt - 1]!;
        queue.push(demoQueueEvent(RECACHE_RETRY_SCHEDULED, { ...subject, reason, retryAt }, hostId, `${id}-outcome`, endedAt));
        pending.push({ entry, attempt: attempt + 1, readyAt: retryAt });
        continue;
      }
      queue.push(demoQueueEvent(RECACHE_GAVE_UP, { ...subject, reason }, hostId, `${id}-outcome`, endedAt));
    } else {
      // A much smaller render than the last good page: a fraction of a page's bytes.
      const bytes = kept ? 2_000 + Math.floor(random() * 3_000) : 20_000 + Math.floor(random() * 180_000);
      const facts = demoPageFacts({ ...pages[page]!, index: page }, options.hostname, endedAt, today, bytes);
      renders.push(demoRenderRecorded(hostId, id, endedAt, { url, dimensionId, trigger, outcome: kept?.outcome ?? 'stored', reason: kept?.reason ?? '', statusCode: 200, renderMs, bytes, attempt, entryId, facts }));
      const succeeded = kept ? { ...subject, outcome: 'kept' as const, mode: 'render' as const } : { ...subject, outcome: 'rendered' as const, mode: 'render' as const, statusCode: 200 };
      queue.push(demoQueueEvent(RECACHE_SUCCEEDED, succeeded, hostId, `${id}-outcome`, endedAt));
    }
    spans.set(`${url}|${dimensionId}`, { from: requestedAt, to: endedAt });
  }
  const byTime = <T extends { occurredAt: string }>(events: T[]) => events.sort((a, b) => a.occurredAt.localeCompare(b.occurredAt));
  return { receiptId, requestedAt, queue: [request, ...byTime(queue)], renders: byTime(renders), spans };
}
