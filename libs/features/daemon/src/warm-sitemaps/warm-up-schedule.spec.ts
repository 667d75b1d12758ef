import { dueWarmUpTurns, sitemapKey, type WarmUpSitemap } from './warm-up-schedule';

const hourly: WarmUpSitemap = { websiteId: 'demo', hostId: 1, url: 'https://www.example.com/sitemap.xml', everyMinutes: 60 };
const daily: WarmUpSitemap = { ...hourly, url: 'https://www.example.com/news.xml', everyMinutes: 1440 };
const at = (iso: string) => Date.parse(iso);

describe('dueWarmUpTurns', () => {
  it('finds every sitemap due at the first check (a warm cache at boot), on intervals aligned on the clock', () => {
    const turns = dueWarmUpTurns([hourly, daily], at('2026-11-28T10:20:00Z'), new Map());
    expect(turns.map((t) => [t.sitemap.url, t.interval * t.ttlMs])).toEqual([
      [hourly.url, at('2026-11-28T10:00:00Z')],
      [daily.url, at('2026-11-28T00:00:00Z')],
    ]);
    expect(turns[0].key).toBe(`${sitemapKey(hourly)}:${turns[0].interval}`);
  });

  it('finds a sitemap again only in its next interval', () => {
    const [first] = dueWarmUpTurns([hourly], at('2026-11-28T10:20:00Z'), new Map());
    const handled = new Map([[sitemapKey(hourly), first.interval]]);
    expect(dueWarmUpTurns([hourly], at('2026-11-28T10:59:59Z'), handled)).toEqual([]);
    expect(dueWarmUpTurns([hourly], at('2026-11-28T11:00:00Z'), handled).map((t) => t.interval)).toEqual([first.interval + 1]);
  });

  it('names a turn the same on every daemon, and differently per website, URL and interval length', () => {
    expect(sitemapKey(hourly)).toBe(sitemapKey({ ...hourly }));
    expect(new Set([sitemapKey(hourly), sitemapKey({ ...hourly, websiteId: 'shop' }), sitemapKey(daily), sitemapKey({ ...hourly, everyMinutes: 30 })]).size).toBe(4);
  });
});
