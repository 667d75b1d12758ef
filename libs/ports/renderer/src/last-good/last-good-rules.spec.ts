import { HostLastGoodConfig } from '@bpc/config';
import { DEFAULT_LAST_GOOD_RULES, DEFAULT_SOFT_404_TITLE_PATTERN, hasVisibleText, judgeAgainstLastGood, lastGoodRulesOf, titleOf, type CurrentEntry, type ProducedPage } from './last-good-rules';

const html = (body: string, title = 'Shop'): string => `<!DOCTYPE html><html><head><title>${title}</title><script>var x = "text";</script></head><body>${body}</body></html>`;
const page = (overrides: Partial<ProducedPage> & { html?: string } = {}): ProducedPage => ({
  kind: 'render',
  statusCode: 200,
  statusSignalled: false,
  contentType: 'text/html; charset=utf-8',
  body: Buffer.from(overrides.html ?? html(`<main><h1>Product</h1><p>${'words '.repeat(500)}</p></main>`)),
  ...overrides,
});
const good: CurrentEntry = { kind: 'render', statusCode: 200, bytes: 4_000 };
const rules = DEFAULT_LAST_GOOD_RULES;

describe('last-good rules', () => {
  it('has the configuration defaults', () => {
    const config = new HostLastGoodConfig();
    expect(lastGoodRulesOf({ last_good: config })).toEqual(DEFAULT_LAST_GOOD_RULES);
    expect(config.soft_404_title_pattern).toBe(DEFAULT_SOFT_404_TITLE_PATTERN);
    expect(lastGoodRulesOf({})).toBe(DEFAULT_LAST_GOOD_RULES);
  });

  describe('without a good entry', () => {
    it('stores the first render of a page, a soft 404 and a small page included', () => {
      expect(judgeAgainstLastGood(page(), undefined, rules)).toEqual({ kind: 'store' });
      expect(judgeAgainstLastGood(page({ statusCode: 404, statusSignalled: true }), undefined, rules)).toEqual({ kind: 'store' });
      expect(judgeAgainstLastGood(page({ html: html('<p>gone</p>', 'Page not found') }), undefined, rules)).toEqual({ kind: 'store' });
    });

    it('fails a blank render rather than caching it', () => {
      expect(judgeAgainstLastGood(page({ html: html('<div id="root"></div>') }), undefined, rules)).toEqual({ kind: 'fail', reason: 'blank page: no visible text' });
    });

    it('judges against a 2xx entry only: a cached 404 or redirect is replaced by any real page', () => {
      const small = page({ html: html('<p>back</p>') });
      expect(judgeAgainstLastGood(small, { ...good, statusCode: 404 }, rules)).toEqual({ kind: 'store' });
      expect(judgeAgainstLastGood(small, { ...good, statusCode: 301, bytes: 0 }, rules)).toEqual({ kind: 'store' });
      expect(judgeAgainstLastGood(page({ html: html('') }), { ...good, statusCode: 404 }, rules)).toMatchObject({ kind: 'fail' });
    });
  });

  describe('against a good entry', () => {
    it('stores a normal render', () => {
      expect(judgeAgainstLastGood(page(), good, rules)).toEqual({ kind: 'store' });
    });

    it('keeps the entry when the page signals 404 or 410 itself (a soft 404)', () => {
      for (const statusCode of [404, 410]) {
        expect(judgeAgainstLastGood(page({ statusCode, statusSignalled: true }), good, rules)).toEqual({
          kind: 'keep',
          reason: 'soft-404',
          detail: `the page signalled ${statusCode} (prerender-status-code) where the cached page is 200`,
        });
      }
    });

    it('stores the origin’s own 404 (the page was removed) and redirects', () => {
      expect(judgeAgainstLastGood(page({ statusCode: 404 }), good, rules)).toEqual({ kind: 'store' });
      expect(judgeAgainstLastGood(page({ statusCode: 301, body: Buffer.alloc(0), contentType: undefined }), good, rules)).toEqual({ kind: 'store' });
    });

    it('keeps the entry for a small page with a "not found" title', () => {
      for (const title of ['404', 'Page Not Found | Shop', 'Error 404 - Shop', 'This product no longer exists', "Sorry, this page doesn't exist"]) {
        expect(judgeAgainstLastGood(page({ html: html('<p>Sorry.</p>', title) }), good, rules)).toMatchObject({ kind: 'keep', reason: 'soft-404', detail: 'a "not found" title on a page under 2048 bytes' });
      }
      // Large pages and other titles are not soft 404s, whatever their title says.
      expect(judgeAgainstLastGood(page({ html: html(`<p>${'x '.repeat(1500)}</p>`, 'Not found') }), { ...good, bytes: 3_000 }, rules)).toEqual({ kind: 'store' });
      expect(judgeAgainstLastGood(page({ html: html('<p>Sorry.</p>', 'Founders 4040') }), { ...good, bytes: 100 }, rules)).toEqual({ kind: 'store' });
    });

    it('keeps the entry for a blank render', () => {
      for (const body of ['', '<div id="app"><!-- loading --></div>', '&nbsp; <span> </span>', '<noscript>Enable JavaScript</noscript><svg><text>spinner</text></svg>', '<template><p>later</p></template>']) {
        expect(judgeAgainstLastGood(page({ html: html(body) }), good, rules)).toEqual({ kind: 'keep', reason: 'blank', detail: 'no visible text' });
      }
    });

    it('keeps the entry for a page under min_size_ratio of the good one, of the same kind only', () => {
      const small = page({ html: html('<p>only a bit of the page</p>') });
      expect(judgeAgainstLastGood(small, { ...good, bytes: 100_000 }, rules)).toEqual({ kind: 'keep', reason: 'smaller', detail: "under 30% of the last good page's size" });
      expect(judgeAgainstLastGood(small, { ...good, kind: 'bypass', bytes: 100_000 }, rules)).toEqual({ kind: 'store' });
      expect(judgeAgainstLastGood(small, { ...good, bytes: 100_000 }, { ...rules, minSizeRatio: 0 })).toEqual({ kind: 'store' });
      expect(judgeAgainstLastGood(small, { ...good, bytes: small.body.length * 3 }, rules)).toEqual({ kind: 'store' });
    });

    it('leaves non-HTML answers (a bypass of JSON) to the size rule only', () => {
      const json = page({ kind: 'bypass', contentType: 'application/json', body: Buffer.from('{}') });
      expect(judgeAgainstLastGood(json, undefined, rules)).toEqual({ kind: 'store' });
      expect(judgeAgainstLastGood(json, { kind: 'bypass', statusCode: 200, bytes: 1_000 }, rules)).toMatchObject({ kind: 'keep', reason: 'smaller' });
    });

    it('stores everything when the rules are off', () => {
      expect(judgeAgainstLastGood(page({ html: html('') }), good, { ...rules, enabled: false })).toEqual({ kind: 'store' });
      expect(judgeAgainstLastGood(page({ statusCode: 404, statusSignalled: true }), good, { ...rules, enabled: false })).toEqual({ kind: 'store' });
    });
  });

  describe('hasVisibleText', () => {
    it.each([
      ['<p>hello</p>', true],
      ['plain text', true],
      ['<div><img src="a.png"></div>', true],
      ['<video src="a.mp4"></video>', true],
      ['<DIV>Upper</DIV>', true],
      ['<div></div>', false],
      ['<script>document.write("x")</script><style>p{}</style>', false],
      ['<!-- a comment --> ', false],
      ['<head><title>Only a title</title></head><body></body>', false],
      ['<p>&nbsp;&#160;</p>', false],
      ['<p>İİİİ</p><script>x</script>', true],
      ['<div title="İİİİ"></div><script>İ</script>', false],
      ['<script src="app.js"/><p>after a self-closed script</p>', true],
      ['<p', false],
      ['<script>never closed', false],
    ])('%j → %s', (body, expected) => {
      expect(hasVisibleText(Buffer.from(body))).toBe(expected);
    });

    it('scans a 16 MiB page quickly', () => {
      const huge = Buffer.from(`<div>${'<span></span>'.repeat(1_300_000)}</div>`);
      const started = performance.now();
      expect(hasVisibleText(huge)).toBe(false);
      expect(performance.now() - started).toBeLessThan(5_000);
    });
  });

  it('reads the title', () => {
    expect(titleOf(Buffer.from('<html><head><title lang="en">  Page &amp; not\n found </title>'))).toBe('Page & not found');
    expect(titleOf(Buffer.from('<html><body>no title'))).toBe('');
  });
});
