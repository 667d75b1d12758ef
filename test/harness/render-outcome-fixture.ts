import { type ExplorerStore, RENDER_OUTCOMES_TABLE, type RenderOutcomeRow } from '@bpc/explorer-store';

let made = 0;

/** A stored render of `url` on host 1 at `at`, with `overrides`: what a test inserts into render_outcomes directly. */
export function renderOutcome(at: Date, overrides: Partial<Omit<RenderOutcomeRow, 'ts'>> = {}): RenderOutcomeRow {
  made += 1;
  return {
    host_id: 1,
    url: 'https://www.example.com/',
    dimension_id: 1,
    mode: 'render',
    trigger: 'recache_normal',
    outcome: 'stored',
    reason: '',
    status_code: 200,
    render_ms: 1000,
    bytes: 20_000,
    attempt: 1,
    entry_id: `entry-${made}`,
    event_id: `render-${made}-${at.getTime()}`,
    ...overrides,
    ts: at.toISOString().replace('T', ' ').replace('Z', ''),
  };
}

/** Inserts rows as one batch (its token from the event ids: the same rows inserted again are stored once). */
export async function insertRenderOutcomes(store: ExplorerStore, rows: readonly RenderOutcomeRow[]): Promise<void> {
  await store.insert({ table: RENDER_OUTCOMES_TABLE, rows, token: `test-renders-${rows.map((r) => r.event_id).join(',')}` });
}

/**
 * `rows` render outcomes of `hostId` generated inside the engine, spread over
 * the `days` before `newestMs`: 5,000 URLs (skewed), two dimensions, every
 * trigger, mostly stored with kept and failed outcomes and their reasons.
 */
export function bulkRenderOutcomesSql(hostId: number, rows: number, newestMs: number, days = 365): string {
  const spanMs = days * 86_400_000;
  const outcomes = "['stored','stored','stored','stored','stored','stored','stored','kept_blank','kept_timeout','kept_soft_404','kept_smaller','kept_fresher','retry_scheduled','gave_up','failed']";
  const reasons = "['','','','','','','','blank page','render timed out','soft 404 (title: Not found)','smaller than 0.3 of the previous render','a fresher render won','render timed out','gave up after 3 attempts','origin answered 502']";
  return `INSERT INTO render_outcomes SELECT
    ${Number(hostId)}, concat('https://www.example.com/p', toString(toUInt32(pow((cityHash64(number, 1) % 1000000) / 1000000.0, 3) * 5000))),
    1 + cityHash64(number, 2) % 2, ['render', 'render', 'render', 'bypass'][(cityHash64(number, 3) % 4) + 1],
    ['recache_high', 'recache_normal', 'autorecache', 'sitemap', 'edge_miss'][(cityHash64(number, 4) % 5) + 1],
    ${outcomes}[(cityHash64(number, 5) % 15) + 1], ${reasons}[(cityHash64(number, 5) % 15) + 1],
    [200, 200, 200, 404, 0][(cityHash64(number, 6) % 5) + 1], 100 + cityHash64(number, 7) % 8000, 10000 + cityHash64(number, 8) % 90000,
    1 + cityHash64(number, 9) % 3, concat('e', toString(number % 100000)),
    fromUnixTimestamp64Milli(toInt64(${Math.floor(newestMs)} - intDiv(number * ${spanMs}, ${rows}))),
    concat('bulk-${Number(hostId)}-', toString(number))
  FROM numbers(${rows})`;
}
