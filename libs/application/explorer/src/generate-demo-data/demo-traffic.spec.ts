import { demoBotRequests, demoSearchDays } from './demo-traffic';

const options = { websiteId: 'demo', hostname: 'www.example.com', nowMs: Date.parse('2026-11-21T12:00:00Z'), days: 30, requestsPerDay: 500, seed: 7 };

describe('demo traffic', () => {
  it('is deterministic for a seed and clock, in time order, never in the future', () => {
    const a = [...demoBotRequests(options)].flat();
    const b = [...demoBotRequests(options)].flat();
    expect(a.map((e) => e.id)).toEqual(b.map((e) => e.id));
    expect(new Set(a.map((e) => e.id)).size).toBe(a.length);
    expect(a.every((e) => Date.parse(e.payload.servedAt) <= options.nowMs)).toBe(true);
    const sorted = [...a].sort((x, y) => x.occurredAt.localeCompare(y.occurredAt));
    expect(a.map((e) => e.id)).toEqual(sorted.map((e) => e.id));
  });

  it('has a realistic mix: skewed popularity, several bots, mostly 200, hits faster than misses', () => {
    const all = [...demoBotRequests(options)].flat().map((e) => e.payload);
    const perUrl = new Map<string, number>();
    for (const r of all) perUrl.set(r.url, (perUrl.get(r.url) ?? 0) + 1);
    const counts = [...perUrl.values()].sort((x, y) => y - x);
    expect(counts[0]).toBeGreaterThan(20 * counts[Math.floor(counts.length / 2)]);
    expect(new Set(all.map((r) => r.botName)).size).toBeGreaterThanOrEqual(8);
    expect(all.filter((r) => r.statusCode === 200).length / all.length).toBeGreaterThan(0.8);
    const avg = (s: string) => { const xs = all.filter((r) => r.cacheStatus === s); return xs.reduce((t, r) => t + r.serveTimeMs, 0) / xs.length; };
    expect(avg('miss')).toBeGreaterThan(10 * avg('hit'));
  });

  it('writes whole days of search data, pages and queries, ending yesterday', () => {
    const days = [...demoSearchDays(options)];
    expect(days).toHaveLength(30);
    expect(days[days.length - 1].map((e) => [e.payload.date, e.payload.grain])).toEqual([['2026-11-20', 'page'], ['2026-11-20', 'query']]);
    const row = days[0][0].payload.rows[0];
    expect(row.clicks).toBeLessThanOrEqual(row.impressions);
  });
});
