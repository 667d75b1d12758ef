import type { PageChange, PageFacts } from '@bpc/domain';
import type { FetchedPage } from './fetched-page';
import type { LastGoodReason } from './last-good/last-good-rules';

export const PAGE_REFRESHER = Symbol('PAGE_REFRESHER');

export interface RefreshJob {
  readonly hostId: number;
  /** The public page URL (as queued); fetched from the host's origin when one is configured. */
  readonly url: string;
  readonly dimensionId: number;
  /** Forces the mode; omitted = the URL rule's action (`render`/`bypass`), else the dimension's action. */
  readonly mode?: 'render' | 'bypass';
}

/** Why the current entry was kept: render-wins (a bypass never replaces a fresh render), or a last-good rule (see `judgeAgainstLastGood`). */
export type KeptReason = 'render-wins' | LastGoodReason;

export type RefreshOutcome =
  | {
      readonly kind: 'stored';
      readonly cacheKind: 'render' | 'bypass';
      readonly statusCode: number;
      readonly bytes: number;
      readonly durationMs: number;
      /** What the stored page says to bots (see `extractPageFacts`). */
      readonly facts: PageFacts;
      /**
       * What changed for bots against the entry this page replaced (its facts,
       * `changesBetween`), most severe first; absent when that entry had no
       * facts or nothing changed. Only a stored page changes what bots read:
       * a kept or failed render leaves the entry, so it reports no changes.
       */
      readonly changes?: readonly PageChange[];
    }
  | {
      readonly kind: 'kept';
      readonly reason: KeptReason;
      /** The rule's reason in words, the same words each time the rule keeps an entry (render history groups by it). */
      readonly detail: string;
      readonly mode: 'render' | 'bypass';
      /** Status and body size of the page produced and not stored; 0 when none was (render-wins decided before fetching). */
      readonly statusCode: number;
      readonly bytes: number;
      readonly durationMs: number;
      /** What the page produced and not stored says to bots; absent when none was produced. */
      readonly facts?: PageFacts;
    }
  | {
      readonly kind: 'failed';
      readonly reason: string;
      readonly durationMs: number;
      /** The job's mode; absent when the job could not be resolved (unknown host or dimension). */
      readonly mode?: 'render' | 'bypass';
      /** The render or fetch ran out of time (its signal, or the page never settled). */
      readonly timedOut?: boolean;
      /** The page has a cache entry, left as it was (still served): the caller may report it kept. */
      readonly entryKept?: boolean;
      readonly unstored?: UnstoredPage;
      /** What the page says to bots when one was produced (judged broken, or not stored). */
      readonly facts?: PageFacts;
    };

/**
 * A page that was produced but that the cache store could not take (a full
 * disk, Redis down): nothing is stored, the refresh failed, yet a caller
 * with a bot waiting can still answer with it.
 */
export interface UnstoredPage {
  readonly cacheKind: 'render' | 'bypass';
  readonly page: FetchedPage;
}

/** Live render capacity, for `/status` (`rs_capacity`) and the scheduler. */
export interface TabCapacity {
  readonly tabs: number;
  /** Tabs not rendering right now. */
  readonly freeTabs: number;
  /** Tabs only online renders may use: ceil(tabs × reservationPercent / 100). */
  readonly reservedForOnline: number;
  /** Recache-eligible tabs (tabs − reserved) free right now. */
  readonly availableForRecache: number;
}

/**
 * Produces one page (browser render or origin fetch) and stores it in the
 * cache store.
 *
 * Guarantees:
 * - Nothing is stored unless the page is a real answer: a timeout, a network
 *   error, an origin 5xx/408/429 or an empty body is `failed` and leaves the
 *   current entry as it was. A 4xx (e.g. 404) is a real answer and is stored.
 * - A real answer the cache store refuses (its write failed) is `failed` with
 *   the page in `unstored`; the current entry stays as it was.
 * - A recache render never takes a tab reserved for online traffic; it waits
 *   for a recache-eligible tab (bounded by `signal`). An online render may
 *   take any free tab.
 * - A bypass never replaces a fresh render (`kept`, render-wins).
 * - Last-good protection: a produced page that looks broken next to the
 *   page's good (2xx) entry — blank, a soft 404, much smaller — keeps that
 *   entry (`kept` with the rule); a blank page with no good entry fails.
 *   The check reads the entry just before `put`; a render stored by another
 *   process in between is judged by the next refresh (no lock across the
 *   two calls).
 * - A `failed` outcome says whether the page had an entry (`entryKept`) and
 *   whether it timed out, so the caller can report a timeout that kept the
 *   old entry.
 * - `signal` bounds the whole call, waiting for a tab included.
 */
export interface RefreshOptions {
  /** Ends the refresh, the wait for a tab included. */
  readonly signal: AbortSignal;
  /** Ends only the wait for a render tab, when sooner (an online miss whose bot stopped waiting need not queue for one). */
  readonly tabWaitSignal?: AbortSignal;
  readonly purpose: 'recache' | 'online';
}

export interface PageRefresher {
  /** Renders or fetches one page and stores it; never throws for page failures (returns 'failed'). */
  refresh(job: RefreshJob, options: RefreshOptions): Promise<RefreshOutcome>;
  capacity(): TabCapacity;
  close(): Promise<void>;
}
