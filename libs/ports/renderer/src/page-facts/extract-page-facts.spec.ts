import { MAX_FACT_TEXT, MAX_LISTED } from '@bpc/domain';
import { MAX_CANONICAL_LENGTH } from '@bpc/domain';
import { canonicalLinks, extractPageFacts, RenderedDocument } from './extract-page-facts';

const URL_ = 'https://www.example.com/widgets/blue';
const factsOf = (html: string, over: Partial<RenderedDocument> = {}) => extractPageFacts({ url: URL_, html, statusCode: 200, headers: {}, soft404: false, ...over });

describe('page facts read from a rendered document', () => {
  const page = `<!doctype html><html lang="en-GB"><head>
    <title>  Blue
      widgets &amp; more </title>
    <meta name="description" content="Every blue widget.">
    <meta property="og:title" content="Blue widgets"><meta property="og:image" content="/og.png">
    <link rel="canonical" href="/widgets/blue?ref=canonical">
    <link rel="alternate" hreflang="de" href="https://www.example.com/de/widgets/blue">
    <link rel="alternate" hreflang="fr" href="https://www.example.fr/widgets/blue">
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"Product","name":"Blue"}</script>
    <script type="application/ld+json">{"@graph":[{"@type":"BreadcrumbList"},{"@type":["Organization","Brand"]}]}</script>
    <script type="application/ld+json">{"@type": "Broken",}</script>
    <style>.words { not: counted }</style>
  </head><body>
    <h1>Blue <em>widgets</em></h1>
    <div itemscope itemtype="https://schema.org/Offer"><span>Only 10 left</span></div>
    <p>Built by scripts: five more words here.</p>
    <script>var notCounted = "a b c d";</script>
    <svg><title>icon title</title></svg>
    <a href="/red">red</a><a href="?page=2">next</a><a href="https://www.example.com/green">green</a>
    <a href="https://elsewhere.example.org/">out</a><a href="#top">top</a><a href="javascript:void(0)">js</a>
    <img src="a.png"><img src="b.png" alt=""><img src="c.png" alt="C">
  </body></html>`;

  it('reads every fact of an ordinary page', () => {
    expect(factsOf(page)).toEqual({
      statusCode: 200,
      bytes: Buffer.byteLength(page),
      soft404: false,
      title: 'Blue widgets & more',
      titleLength: 19,
      description: 'Every blue widget.',
      lang: 'en-GB',
      h1Count: 1,
      firstH1: 'Blue widgets',
      canonical: 'https://www.example.com/widgets/blue?ref=canonical',
      canonicals: ['https://www.example.com/widgets/blue?ref=canonical'],
      noindexBy: [],
      nofollowBy: [],
      hreflangCount: 2,
      hreflangOffSite: 1,
      ogTitle: true,
      ogImage: true,
      jsonLdTypes: ['Brand', 'BreadcrumbList', 'Organization', 'Product'],
      jsonLdBlocks: 3,
      jsonLdInvalid: 1,
      microdataTypes: ['https://schema.org/Offer'],
      // "Blue widgets" + "Only 10 left" + "Built by scripts: five more words here." + "red next green out top js"
      wordCount: 2 + 3 + 7 + 6,
      internalLinks: 3,
      externalLinks: 1,
      imagesWithoutAlt: 1,
    });
  });

  it('merges robots directives from metas and X-Robots-Tag, per bot, whatever the casing and spacing', () => {
    const html = '<meta name="ROBOTS" content=" NoFollow "><meta name="GoogleBot" content="noindex"><meta name="otherbot" content="noindex">';
    expect(factsOf(html)).toMatchObject({ noindexBy: ['googlebot'], nofollowBy: ['robots'] });
    const headers = { 'x-robots-tag': ['unavailable_after: 2030-01-01, bingbot: NOINDEX', 'otherbot: noindex, nofollow', 'none'] };
    expect(factsOf('<p>x</p>', { headers })).toMatchObject({ noindexBy: ['robots', 'bingbot'], nofollowBy: ['robots'] });
    expect(factsOf('<p>x</p>', { headers: { 'x-robots-tag': 'googlebot: noindex, nofollow' } })).toMatchObject({ noindexBy: ['googlebot'], nofollowBy: ['googlebot'] });
  });

  it('ignores canonicals longer than MAX_CANONICAL_LENGTH: twenty 100 KB canonicals leave the facts small', () => {
    const huge = Array.from({ length: 20 }, (_, i) => `<link rel="canonical" href="/p${i}?${'x'.repeat(100_000)}">`).join('');
    const facts = factsOf(`${huge}<link rel="canonical" href="/ok">`);
    expect(facts.canonical).toBe('https://www.example.com/ok');
    expect(facts.canonicals).toEqual(['https://www.example.com/ok']);
    expect(JSON.stringify(facts).length).toBeLessThan(2_000);
    expect(factsOf(`<link rel="canonical" href="/${'y'.repeat(MAX_CANONICAL_LENGTH)}">`).canonical).toBeNull();
  });

  it('lists every distinct canonical, from the document first, then the Link header; only http(s) ones count', () => {
    const html = '<link rel="canonical" href="javascript:alert(1)"><link rel="canonical" href="relative/page"><link rel="Canonical Other" href="https://www.example.com/b">';
    const facts = factsOf(html, { headers: { link: '<https://www.example.com/c>; rel="canonical", <https://www.example.com/de>; rel="alternate"; hreflang="de"' } });
    expect(facts.canonical).toBe('https://www.example.com/widgets/relative/page');
    expect(facts.canonicals).toEqual(['https://www.example.com/widgets/relative/page', 'https://www.example.com/b', 'https://www.example.com/c']);
  });

  it('resolves against the document base', () => {
    expect(factsOf('<base href="https://cdn.example.com/x/"><link rel="canonical" href="page"><a href="y">y</a>').canonical).toBe('https://cdn.example.com/x/page');
  });

  it('reads canonicals from Link header values', () => {
    expect(canonicalLinks(['<https://a.example/>; rel=canonical', '<https://b.example/x,y>; rel="preload canonical"; as=document', '<https://c.example/>; rel="alternate"'])).toEqual([
      'https://a.example/',
      'https://b.example/x,y',
    ]);
  });

  it('has no title, description or h1 when the page has none (or only empty ones)', () => {
    expect(factsOf('<title>   </title><meta name="description" content=" "><p>hello</p>')).toMatchObject({ title: null, titleLength: 0, description: null, h1Count: 0, firstH1: null, lang: null });
  });

  describe('hostile pages', () => {
    it('a 10,000-character title is stored cut, with its length', () => {
      const facts = factsOf(`<title>${'t'.repeat(10_000)}</title>`);
      expect(facts.title).toHaveLength(MAX_FACT_TEXT);
      expect(facts.titleLength).toBe(10_000);
    });

    it('50,000 links are counted', () => {
      const links = Array.from({ length: 50_000 }, (_, n) => (n % 2 ? `<a href="/p/${n}">p</a>` : `<a href="https://x${n}.example.org/">x</a>`)).join('');
      expect(factsOf(links)).toMatchObject({ internalLinks: 25_000, externalLinks: 25_000 });
    });

    it('a 5 MB JSON-LD block and 1,000 blocks are bounded and counted, never a crash', () => {
      const huge = `<script type="application/ld+json">{"@type":"Thing","x":"${'a'.repeat(5_000_000)}"}</script>`;
      expect(factsOf(huge)).toMatchObject({ jsonLdBlocks: 1, jsonLdInvalid: 1, jsonLdTypes: [] });
      const many = Array.from({ length: 1_000 }, (_, n) => `<script type="application/ld+json">{"@type":"T${String(n).padStart(4, '0')}"}</script>`).join('');
      const facts = factsOf(many);
      expect(facts).toMatchObject({ jsonLdBlocks: 1_000, jsonLdInvalid: 0 });
      expect(facts.jsonLdTypes).toHaveLength(MAX_LISTED);
    });

    it('twenty canonicals are listed up to the cap, the first one winning', () => {
      const html = Array.from({ length: 25 }, (_, n) => `<link rel="canonical" href="/c${n}">`).join('');
      const facts = factsOf(html);
      expect(facts.canonical).toBe('https://www.example.com/c0');
      expect(facts.canonicals).toHaveLength(MAX_LISTED);
    });

    it('unclosed and misnested markup still gives facts', () => {
      expect(factsOf('<h1>one<h1>two</h1><title>late<p>words here')).toMatchObject({ h1Count: 2, title: 'late<p>words here' });
    });
  });
});
