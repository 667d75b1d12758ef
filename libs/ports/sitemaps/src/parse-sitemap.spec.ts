import { DEFAULT_SITEMAP_LIMITS, SitemapRefused } from './sitemap-limits';
import { parseSitemap, SitemapParser } from './parse-sitemap';

const limits = DEFAULT_SITEMAP_LIMITS;
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const urlset = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>\n<urlset ${NS}>${body}</urlset>`;

function refusal(text: string, custom = limits): string {
  try {
    parseSitemap(text, custom);
  } catch (error) {
    expect(error).toBeInstanceOf(SitemapRefused);
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
}

describe('SitemapParser', () => {
  it('reads a urlset: loc and lastmod of each <url>, extensions skipped', () => {
    const parsed = parseSitemap(
      urlset(`
        <url><loc> https://www.example.com/a </loc><lastmod>2024-05-01</lastmod><changefreq>daily</changefreq></url>
        <url xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><loc>https://www.example.com/b?x=1&amp;y=2</loc>
          <image:image><image:loc>https://cdn.example.com/i.png</image:loc></image:image></url>
        <url><loc><![CDATA[https://www.example.com/c]]></loc></url>`),
      limits,
    );
    expect(parsed).toEqual({
      kind: 'urlset',
      overCap: 0,
      entries: [{ loc: 'https://www.example.com/a', lastmod: '2024-05-01' }, { loc: 'https://www.example.com/b?x=1&y=2' }, { loc: 'https://www.example.com/c' }],
    });
  });

  it('reads a sitemap index, with or without the namespace, any prefix', () => {
    expect(parseSitemap(`<sitemapindex ${NS}><sitemap><loc>https://e.com/s1.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap></sitemapindex>`, limits).entries).toEqual([
      { loc: 'https://e.com/s1.xml.gz', lastmod: '2024-01-01' },
    ]);
    expect(parseSitemap('<sitemapindex><sitemap><loc>https://e.com/s</loc></sitemap></sitemapindex>', limits).kind).toBe('sitemapindex');
    expect(parseSitemap('<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>https://e.com/</sm:loc></sm:url></sm:urlset>', limits).entries).toEqual([{ loc: 'https://e.com/' }]);
  });

  it('takes text fed in pieces, split anywhere', () => {
    const text = urlset('<url><loc>https://www.example.com/a&amp;b</loc></url>');
    const parser = new SitemapParser(limits);
    for (const piece of text.match(/[\s\S]{1,3}/g)!) parser.write(piece);
    expect(parser.end().entries).toEqual([{ loc: 'https://www.example.com/a&b' }]);
  });

  it('refuses the billion laughs (any DOCTYPE) before expanding anything', () => {
    const lol = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol9 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<urlset ${NS}><url><loc>https://www.example.com/&lol9;</loc></url></urlset>`;
    expect(refusal(lol)).toMatch(/DOCTYPE/);
  });

  it('refuses external entities and a bare DOCTYPE', () => {
    expect(refusal(`<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><urlset><url><loc>&xxe;</loc></url></urlset>`)).toMatch(/DOCTYPE/);
    expect(refusal('<!DOCTYPE urlset><urlset/>')).toMatch(/DOCTYPE/);
  });

  it('refuses references to entities XML does not predefine', () => {
    expect(refusal(urlset('<url><loc>https://e.com/&nbsp;</loc></url>'))).toMatch(/not well-formed XML/);
  });

  it('refuses HTML, JSON, binary and empty bodies', () => {
    expect(refusal('<!doctype html><html><body><p>Not found</body></html>')).toMatch(/DOCTYPE|not well-formed/);
    expect(refusal('<html><head><title>x</title></head><body/></html>')).toMatch(/root element is <html>/);
    expect(refusal('{"urls": ["https://e.com/"]}')).toMatch(/not well-formed XML/);
    expect(refusal('\u0000\u0001\u0002')).toMatch(/not well-formed XML/);
    expect(refusal('')).toMatch(/empty|not well-formed/);
    expect(refusal('<rss version="2.0"><channel/></rss>')).toMatch(/root element is <rss>/);
  });

  it('refuses a document cut short', () => {
    expect(refusal(`<urlset ${NS}><url><loc>https://e.com/</loc>`)).toMatch(/not well-formed XML/);
  });

  it('refuses deep nesting without recursing', () => {
    const deep = `<urlset ${NS}><url>${'<x>'.repeat(100_000)}${'</x>'.repeat(100_000)}</url></urlset>`;
    expect(refusal(deep)).toMatch(/nested deeper than 8/);
  });

  it('counts <url> entries past the per-file cap instead of keeping them', () => {
    const parsed = parseSitemap(urlset('<url><loc>https://e.com/1</loc></url>'.repeat(5)), { ...limits, maxUrlsPerFile: 3 });
    expect(parsed.entries).toHaveLength(3);
    expect(parsed.overCap).toBe(2);
  });

  it('refuses an index listing too many sitemaps', () => {
    const index = `<sitemapindex ${NS}>${'<sitemap><loc>https://e.com/s.xml</loc></sitemap>'.repeat(4)}</sitemapindex>`;
    expect(refusal(index, { ...limits, maxSitemapsPerIndex: 3 })).toMatch(/more than 3 sitemaps/);
  });

  it('holds no more of a huge <loc> than the limit, and reports the entry without a loc', () => {
    const parsed = parseSitemap(urlset(`<url><loc>https://e.com/${'a'.repeat(100_000)}</loc></url><url><lastmod>2024-01-01</lastmod></url>`), limits);
    expect(parsed.entries).toEqual([{ loc: undefined }, { loc: undefined, lastmod: '2024-01-01' }]);
  });

  it('refuses a tag, comment, CDATA section or text the parser would have to hold whole past maxMarkupChars, fed in any pieces', () => {
    const small = { ...limits, maxMarkupChars: 100_000 };
    const huge = 'x'.repeat(300_000);
    const cases = [
      urlset(`<!-- ${huge} -->`),
      urlset(`<!-- ${'a>'.repeat(150_000)} -->`),
      urlset(`<url a="${huge}"><loc>https://e.com/</loc></url>`),
      urlset(`<url><loc><![CDATA[${huge}]]></loc></url>`),
      urlset(`<url><loc>https://e.com/${huge}</loc></url>`),
      urlset(`<url><x>${huge}</x></url>`),
      `<?xml version="1.0"?><?pi ${huge}?><urlset ${NS}></urlset>`,
    ];
    for (const text of cases) {
      expect(refusal(text, small)).toMatch(/longer than 100000 characters/);
      const parser = new SitemapParser(small);
      expect(() => {
        for (let at = 0; at < text.length; at += 7_919) parser.write(text.slice(at, at + 7_919));
      }).toThrow(/longer than 100000 characters/);
    }
    // A large sitemap of ordinary pieces is read.
    expect(parseSitemap(urlset('<url><loc>https://e.com/p</loc><!-- c --></url>'.repeat(20_000)), small).entries).toHaveLength(20_000);
  });
});

