import { sitemapChunks } from './recache-sitemap.handler';

describe('sitemapChunks', () => {
  it('cuts at the URL count or the character budget, whichever comes first, keeping the order', () => {
    const urls = Array.from({ length: 25 }, (_, i) => `https://e.com/${String(i).padStart(2, '0')}`);
    expect(sitemapChunks(urls, 10, 1_000_000).map((c) => c.length)).toEqual([10, 10, 5]);
    // Each URL costs 16 + 3 characters: 4 fit in 80.
    expect(sitemapChunks(urls, 10, 80).map((c) => c.length)).toEqual([4, 4, 4, 4, 4, 4, 1]);
    expect(sitemapChunks(urls, 10, 80).flat()).toEqual(urls);
  });

  it('gives a URL longer than the budget a chunk of its own, and nothing for no URL', () => {
    expect(sitemapChunks(['a', 'x'.repeat(100), 'b'], 10, 10)).toEqual([['a'], ['x'.repeat(100)], ['b']]);
    expect(sitemapChunks([])).toEqual([]);
  });
});
