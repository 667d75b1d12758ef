import { changesBetween, issuesOf, type PageFacts } from '@bpc/domain';
import { demoSearchDays, demoTraffic } from './demo-traffic';

const options = { websiteId: 'demo', hostId: 1, hostname: 'www.example.com', nowMs: Date.parse('2026-11-21T12:00:00Z'), days: 30, requestsPerDay: 500, seed: 7 };

describe('demo traffic', () => {
  it('is deterministic for a seed and clock, in time order, never in the future', () => {
    const a = [...demoTraffic(options)].flatMap((day) => day.botRequests);
    const b = [...demoTraffic(options)].flatMap((day) => day.botRequests);
    expect(a.map((e) => e.id)).toEqual(b.map((e) => e.id));
    expect(new Set(a.map((e) => e.id)).size).toBe(a.length);
    expect(a.every((e) => Date.parse(e.payload.servedAt) <= options.nowMs)).toBe(true);
    const sorted = [...a].sort((x, y) => x.occurredAt.localeCompare(y.occurredAt));
    expect(a.map((e) => e.id)).toEqual(sorted.map((e) => e.id));
  });

  it('has a realistic mix: skewed popularity, several bots, mostly 200, hits faster than misses', () => {
    const all = [...demoTraffic(options)].flatMap((day) => day.botRequests).map((e) => e.payload);
    const perUrl = new Map<string, number>();
    for (const r of all) perUrl.set(r.url, (perUrl.get(r.url) ?? 0) + 1);
    const counts = [...perUrl.values()].sort((x, y) => y - x);
    expect(counts[0]).toBeGreaterThan(20 * counts[Math.floor(counts.length / 2)]);
    expect(new Set(all.map((r) => r.botName)).size).toBeGreaterThanOrEqual(8);
    expect(all.filter((r) => r.statusCode === 200).length / all.length).toBeGreaterThan(0.8);
    const avg = (s: string) => { const xs = all.filter((r) => r.cacheStatus === s); return xs.reduce((t, r) => t + r.serveTimeMs, 0) / xs.length; };
    expect(avg('miss')).toBeGreaterThan(10 * avg('hit'));
  });

  it('tells who reads: every bot category the site sees, AI agents with their operators, Markdown for assistants only, spoofed Googlebots unverified and never rendered for, disallowed crawling flagged', () => {
    const all = [...demoTraffic(options)].flatMap((day) => day.botRequests).map((e) => e.payload);
    expect(new Set(all.map((r) => r.botCategory))).toEqual(new Set(['search', 'ai_search', 'ai_assistant', 'ai_training', 'social', 'seo_tool', 'monitoring']));
    const operatorsOf = (category: string) => new Set(all.filter((r) => r.botCategory === category).map((r) => r.botOperator));
    expect(operatorsOf('ai_assistant')).toEqual(new Set(['OpenAI', 'Anthropic', 'Perplexity']));
    expect(operatorsOf('ai_training')).toEqual(new Set(['OpenAI', 'Anthropic', 'Common Crawl']));
    const markdown = all.filter((r) => r.format === 'markdown');
    expect(markdown.length).toBeGreaterThan(0);
    expect(new Set(markdown.map((r) => r.botCategory))).toEqual(new Set(['ai_assistant']));
    const spoofed = all.filter((r) => r.verified === 'no');
    expect(spoofed.length).toBeGreaterThan(0);
    expect(new Set(spoofed.map((r) => r.botName))).toEqual(new Set(['Googlebot']));
    // A spoofed miss is the edge's 403 (no render): never a page rendered for it.
    expect(spoofed.filter((r) => (r.cacheStatus === 'miss' && r.statusCode !== 403) || r.cacheStatus === 'bypass')).toEqual([]);
    expect(spoofed.filter((r) => r.cacheStatus === 'miss').length).toBeGreaterThan(0);
    expect(all.filter((r) => r.botName === 'Googlebot' && r.verified === 'yes').length).toBeGreaterThan(10 * spoofed.length);
    const disallowed = all.filter((r) => r.robotsAllowed === 'no');
    expect(new Set(disallowed.map((r) => r.botName))).toEqual(new Set(['GPTBot', 'ClaudeBot', 'CCBot', 'AhrefsBot']));
    expect(disallowed.filter((r) => r.botName === 'GPTBot').every((r) => new URL(r.url).pathname.startsWith('/docs/'))).toBe(true);
  });

  it('writes whole days of search data, pages and queries, ending yesterday', () => {
    const days = [...demoSearchDays(options)];
    expect(days).toHaveLength(30);
    expect(days[days.length - 1].map((e) => [e.payload.date, e.payload.grain])).toEqual([['2026-11-20', 'page'], ['2026-11-20', 'query']]);
    const row = days[0][0].payload.rows[0];
    expect(row.clicks).toBeLessThanOrEqual(row.impressions);
  });
  it('tells one story: every miss has its render at the same moment (a spoofed bot\'s refused 403 none), and the failed ones are the misses answered 503 or 504', () => {
    const days = [...demoTraffic(options)];
    const requests = days.flatMap((day) => day.botRequests).map((e) => e.payload);
    const renders = days.flatMap((day) => day.renders).map((e) => e.payload);
    // A spoofed bot's miss refused 403 started no render.
    const rendered = (r: { cacheStatus: string; verified?: string; statusCode: number }) => r.cacheStatus === 'miss' && !(r.verified === 'no' && r.statusCode === 403);
    const misses = requests.filter(rendered);
    const edgeRenders = renders.filter((r) => r.trigger === 'edge_miss');
    expect(edgeRenders.map((r) => [r.url, r.dimensionId])).toEqual(misses.map((r) => [r.url, r.dimensionId]));
    const failedMisses = misses.filter((r) => r.statusCode === 503 || r.statusCode === 504);
    expect(failedMisses.length).toBeGreaterThan(0);
    expect(edgeRenders.filter((r) => r.outcome === 'failed')).toHaveLength(failedMisses.length);
    expect(edgeRenders.filter((r) => r.outcome !== 'failed' && r.outcome !== 'stored')).toEqual([]);
    const at = (e: { occurredAt: string }) => e.occurredAt;
    expect(days.flatMap((day) => day.renders.filter((r) => r.payload.trigger === 'edge_miss').map(at))).toEqual(days.flatMap((day) => day.botRequests.filter((r) => rendered(r.payload)).map(at)));
    // The scheduler's recaches bring the other outcomes the Renders page explains.
    expect(new Set(renders.filter((r) => r.trigger !== 'edge_miss').map((r) => r.outcome))).toEqual(new Set(['stored', 'kept_smaller', 'kept_soft_404', 'kept_blank', 'retry_scheduled', 'gave_up']));
  });

  it('tells what bots read: pages rendered 200 carry their facts, with issues of several kinds, and the top pages\' changes of the last days are recorded with the render that found them', () => {
    const renders = [...demoTraffic(options)].flatMap((day) => day.renders).map((e) => e.payload);
    const withFacts = renders.filter((r) => r.facts);
    expect(withFacts.length).toBeGreaterThan(renders.length / 2);
    expect(withFacts.every((r) => r.statusCode === 200 && (r.outcome === 'stored' || r.outcome === 'kept_smaller'))).toBe(true);
    const codes = new Set(withFacts.flatMap((r) => issuesOf(r.facts!, { url: r.url, sameTitleUrls: 0, botRequests: 1, inSitemap: false }).map((i) => i.code)));
    expect(codes).toEqual(new Set(['noindex', 'canonical_elsewhere', 'description_missing', 'h1_multiple', 'structured_data_invalid', 'thin_content', 'images_without_alt']));
    // Each change is what the stored render found against the entry it replaced (the previous stored render, when it had facts).
    const entries = new Map<string, PageFacts | undefined>();
    for (const r of renders.filter((x) => x.outcome === 'stored')) {
      const before = entries.get(`${r.url}|${r.dimensionId}`);
      expect(r.changes ?? []).toEqual(before && r.facts ? changesBetween(before, r.facts) : []);
      entries.set(`${r.url}|${r.dimensionId}`, r.facts);
    }
    const changed = renders.flatMap((r) => (r.changes ?? []).map((c) => `${new URL(r.url).pathname} ${c.field} ${c.severity}`));
    expect(new Set(changed)).toEqual(new Set(['/features noindex critical', '/pricing structured_data warning', '/pricing title notice', '/docs word_count warning', '/blog canonical warning', '/ description notice']));
  });
});
