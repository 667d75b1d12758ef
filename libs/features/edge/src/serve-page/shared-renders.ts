import { performance } from 'node:perf_hooks';
import { PageRefresher, RefreshOutcome, renderFactOf } from '@bpc/renderer';
import type { RenderFactRecorder } from '../record-render/render-fact-recorder';

interface Flight {
  readonly done: Promise<RefreshOutcome>;
  /** performance.now() when the render finished; requests that started later render again. */
  settledAt?: number;
}

/** How long a finished render is kept for requests that started before it finished. */
const FLIGHT_GRACE_MS = 5_000;

/** How long renders of misses may take. */
export interface RenderTimeouts {
  /** What a bot waits for a render (and for a tab to render on): `edge.render_timeout_ms`. */
  readonly botWaitMs: number;
  /** What a render may take once started: a recache's `recache.timeout_per_url`. */
  readonly renderMs: number;
}

/**
 * Renders of misses, shared: misses of one host + URL + dimension share one
 * render (a single-flight map). A request that started before a render
 * finished uses its result; one that starts after it renders again (so an
 * invalidate right after a render still makes the next request render).
 * Each render (not each request sharing it) is one `RenderRecorded` fact,
 * recorded in the background once it ends (`RenderFactRecorder`).
 */
export class SharedRenders {
  private readonly flights = new Map<string, Flight>();

  constructor(
    private readonly refresher: PageRefresher,
    private readonly renderFacts: RenderFactRecorder,
    private readonly timeouts: RenderTimeouts,
  ) {}

  /** The outcome of the page's render, or 'timeout' once the bot that arrived at `started` has waited `botWaitMs`. */
  async outcome(hostId: number, url: string, dimensionId: number, started: number): Promise<RefreshOutcome | 'timeout'> {
    const flight = this.flightFor(hostId, url, dimensionId, started);
    const remaining = Math.max(0, this.timeouts.botWaitMs - (performance.now() - started));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), remaining)));
    try {
      return await Promise.race([flight.done, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private flightFor(hostId: number, url: string, dimensionId: number, started: number): Flight {
    const key = `${hostId}\n${dimensionId}\n${url}`;
    const flight = this.flights.get(key);
    if (flight && (flight.settledAt === undefined || flight.settledAt >= started)) return flight;
    // The bot waits at most botWaitMs; a render that started may take as long as a recache, so a slow page is cached for the next bot
    // instead of being abandoned at every miss. Waiting for a tab ends with the bot's wait: renders nobody waits for must not queue for tabs.
    const signal = AbortSignal.timeout(Math.max(this.timeouts.botWaitMs, this.timeouts.renderMs));
    const tabWaitSignal = AbortSignal.timeout(this.timeouts.botWaitMs);
    const created: Flight = {
      done: this.refresher.refresh({ hostId, url, dimensionId }, { signal, tabWaitSignal, purpose: 'online' }).catch(
        (error: unknown): RefreshOutcome => ({ kind: 'failed', reason: error instanceof Error ? error.message : String(error), durationMs: 0 }),
      ),
    };
    void created.done.then((outcome) => {
      created.settledAt = performance.now();
      // Once per render, not per bot waiting on it; buffered, so the answer never waits for the log.
      this.renderFacts.record({ hostId, url, dimensionId, trigger: 'edge_miss', attempt: 1, ...renderFactOf(outcome, 'edge', undefined) });
      setTimeout(() => this.flights.get(key) === created && this.flights.delete(key), FLIGHT_GRACE_MS).unref();
    });
    this.flights.set(key, created);
    return created;
  }
}
