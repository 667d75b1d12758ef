import { receiptIdMintedAt } from '@bpc/domain';
import { type QueueEvent, RECACHE_GAVE_UP, RECACHE_REQUESTED, RECACHE_RETRY_SCHEDULED, RECACHE_SUCCEEDED, type RecacheRequested, type RenderRecorded } from '@bpc/events';
import { demoTraffic } from './demo-traffic';

const DAY_MS = 86_400_000;
const options = { websiteId: 'demo', hostId: 1, hostname: 'www.example.com', nowMs: Date.parse('2026-11-21T12:00:00Z'), days: 30, requestsPerDay: 500, seed: 7 };
const today = Date.parse('2026-11-21T00:00:00Z');

const traffic = (over: Partial<typeof options> = {}) => {
  const days = [...demoTraffic({ ...options, ...over })];
  return { receipts: days.flatMap((d) => d.receipts), queue: days.flatMap((d) => d.queue), renders: days.flatMap((d) => d.renders) };
};
const isRequest = (e: QueueEvent): e is RecacheRequested => e.type === RECACHE_REQUESTED;
const stateOf = (outcome: string) => (outcome === 'stored' ? 'stored' : outcome.startsWith('kept_') ? 'kept' : 'failed');

/**
 * A receipt entry as the receipt read (receipt-sql.ts) finds it: the first
 * render of its URL and dimension that began after the request and ended it
 * (not `retry_scheduled`), edge misses aside.
 */
function receiptState(request: RecacheRequested, url: string, dimensionId: number, renders: readonly RenderRecorded[]): string | undefined {
  const requestedAt = Date.parse(request.occurredAt);
  const first = renders.find(({ occurredAt, payload: p }) => p.url === url && p.dimensionId === dimensionId && p.trigger !== 'edge_miss' && p.outcome !== 'retry_scheduled' && Date.parse(occurredAt) - p.renderMs >= requestedAt);
  return first && stateOf(first.payload.outcome);
}

describe('demo receipts', () => {
  const { receipts, queue, renders } = traffic();
  const requests = queue.filter(isRequest);

  it('asks for three receipted recaches of the host, each recorded settled (never queued) with a UUID v7 receipt of its time, then every entry has its final outcome, in time order', () => {
    expect(receipts).toHaveLength(3);
    expect(requests.map((r) => r.payload.receiptId)).toEqual(receipts);
    expect(requests.map((r) => [r.payload.source, r.payload.priority, r.payload.settled, r.key])).toEqual([['sitemap', 'normal', true, '1'], ['public-api', 'high', true, '1'], ['public-api', 'normal', true, '1']]);
    for (const request of requests) expect(receiptIdMintedAt(request.payload.receiptId!)).toBe(Date.parse(request.occurredAt));
    expect(queue.map((e) => e.occurredAt)).toEqual([...queue].map((e) => e.occurredAt).sort());
    for (const request of requests) {
      const outcomes = queue.filter((e) => e.type !== RECACHE_REQUESTED && 'entryId' in e.payload && e.payload.entryId === request.id);
      const final = outcomes.filter((e) => e.type === RECACHE_SUCCEEDED || e.type === RECACHE_GAVE_UP);
      const entries = request.payload.urls.flatMap((url) => request.payload.dimensionIds.map((d) => `${url}|${d}`));
      expect(final.map((e) => `${'url' in e.payload && e.payload.url}|${'dimensionId' in e.payload && e.payload.dimensionId}`).sort()).toEqual([...entries].sort());
      expect(outcomes.every((e) => e.occurredAt > request.occurredAt && e.key === '1')).toBe(true);
    }
  });

  it("records each attempt twice at one moment, as the scheduler does: the queue's outcome and the render with the entry id, attempt and trigger", () => {
    const attempts = queue.filter((e) => e.type !== RECACHE_REQUESTED);
    const receiptRenders = renders.filter((r) => requests.some((q) => q.id === r.payload.entryId));
    expect(receiptRenders).toHaveLength(attempts.length);
    const asQueue = (r: RenderRecorded) => {
      const type = r.payload.outcome === 'retry_scheduled' ? RECACHE_RETRY_SCHEDULED : r.payload.outcome === 'gave_up' ? RECACHE_GAVE_UP : RECACHE_SUCCEEDED;
      return [type, r.occurredAt, r.payload.url, r.payload.dimensionId, r.payload.entryId, r.payload.attempt].join(' ');
    };
    const fromQueue = attempts.map((e) => {
      const p = e.payload as { url: string; dimensionId: number; entryId: string; attempt: number };
      return [e.type, e.occurredAt, p.url, p.dimensionId, p.entryId, p.attempt].join(' ');
    });
    expect(receiptRenders.map(asQueue).sort()).toEqual(fromQueue.sort());
    expect(new Set(receiptRenders.map((r) => r.payload.trigger))).toEqual(new Set(['sitemap', 'recache_high', 'recache_normal']));
  });

  it("reads as the Renders page shows its entries: each entry's state is its final outcome's (no other recache of it ends in between), and the story's outcomes are there", () => {
    const byReceipt = requests.map((request) => {
      const finals = renders.filter((r) => r.payload.entryId === request.id && r.payload.outcome !== 'retry_scheduled');
      for (const render of finals) expect(receiptState(request, render.payload.url, render.payload.dimensionId, renders)).toBe(stateOf(render.payload.outcome));
      return finals.map((r) => `${new URL(r.payload.url).pathname}|${r.payload.dimensionId} ${r.payload.outcome} ${r.payload.attempt}`);
    });
    // The night's sitemap recache: stored until the origin went down (502), then three attempts each and given up.
    const [sitemap, landing, pricing] = byReceipt;
    expect(sitemap).toHaveLength(40);
    expect(sitemap!.filter((e) => e.endsWith('stored 1')).length).toBeGreaterThan(5);
    expect(sitemap!.filter((e) => e.endsWith('gave_up 3')).length).toBeGreaterThan(20);
    expect(renders.filter((r) => r.payload.entryId === requests[0]!.id && r.payload.outcome !== 'stored').every((r) => r.payload.reason === 'origin answered 502')).toBe(true);
    // The landing pages after the noindex deploy: /docs on mobile kept its old page.
    expect(landing!.sort()).toEqual(['/|1 stored 1', '/|2 stored 1', '/blog|1 stored 1', '/blog|2 stored 1', '/docs|1 stored 1', '/docs|2 kept_smaller 1', '/features|1 stored 1', '/features|2 stored 1', '/pricing|1 stored 1', '/pricing|2 stored 1'].sort());
    expect(renders.find((r) => r.payload.entryId === requests[1]!.id && r.payload.url.endsWith('/features'))?.payload.facts?.noindexBy).toEqual(['robots']);
    expect(pricing!.sort()).toEqual(['/pricing|1 stored 1', '/pricing|2 stored 1']);
  });

  it('writes only the receipts within the days, at the same moments whatever the time of day', () => {
    expect(traffic({ days: 1 }).receipts).toEqual([]);
    expect(traffic({ days: 3 }).receipts).toEqual(receipts.slice(1));
    // A minute after midnight: yesterday's recache is the same one, the others before the days.
    expect(traffic({ days: 2, nowMs: today + 60_000 }).receipts).toEqual(receipts.slice(2));
    expect(traffic({ days: 2, nowMs: today + 60_000 }).queue.filter(isRequest)[0]?.occurredAt).toBe(new Date(today - DAY_MS + (8 * 60 + 10) * 60_000).toISOString());
  });
});
