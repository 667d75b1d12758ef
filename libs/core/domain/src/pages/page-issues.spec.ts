import { factsWith, healthyFacts, pageContext } from './page-facts.fixtures';
import { criticalIssueCount, DEFAULT_ISSUE_THRESHOLDS, ISSUE_CATALOG, ISSUE_CODES, issuesOf, PAGE_ISSUE_CODES } from './page-issues';

const codesOf = (...args: Parameters<typeof issuesOf>) => issuesOf(...args).map((found) => found.code);

describe("page issues, from a page's latest facts", () => {
  it('a healthy page has none', () => {
    expect(issuesOf(healthyFacts, pageContext)).toEqual([]);
  });

  it.each([
    ['noindex', { noindexBy: ['robots'] }],
    ['status_4xx', { statusCode: 404 }],
    ['status_5xx', { statusCode: 503 }],
    ['soft_404', { soft404: true }],
    ['canonical_other_origin', { canonical: 'https://shop.example.net/widgets/blue' }],
    ['canonical_elsewhere', { canonical: 'https://www.example.com/widgets' }],
    ['title_missing', { title: null, titleLength: 0 }],
    ['title_too_long', { title: 'x'.repeat(61), titleLength: 61 }],
    ['description_missing', { description: null }],
    ['h1_missing', { h1Count: 0, firstH1: null }],
    ['h1_multiple', { h1Count: 3 }],
    ['structured_data_invalid', { jsonLdBlocks: 3, jsonLdInvalid: 1 }],
    ['thin_content', { wordCount: 199 }],
    ['images_without_alt', { imagesWithoutAlt: 2 }],
  ] as const)('given facts with %s, then that issue alone, with its catalog severity and explanation', (code, over) => {
    const [found, ...others] = issuesOf(factsWith(over), pageContext);
    expect(others).toEqual([]);
    expect(found).toMatchObject({ code, severity: ISSUE_CATALOG[code].severity, explanation: ISSUE_CATALOG[code].explanation });
  });

  it("a page's own facts decide every issue but title_duplicate, which needs the rest of the website", () => {
    const worst = factsWith({ canonical: 'https://shop.example.net/', title: 'x'.repeat(61), titleLength: 61, description: null, h1Count: 3, jsonLdBlocks: 1, jsonLdInvalid: 1, wordCount: 1, imagesWithoutAlt: 1 });
    const decided = [worst, factsWith({ noindexBy: ['robots'], statusCode: 404, soft404: true }), factsWith({ statusCode: 503 }), factsWith({ title: null, titleLength: 0, h1Count: 0, canonical: 'https://www.example.com/widgets' })]
      .flatMap((facts) => codesOf(facts, pageContext));
    expect(ISSUE_CODES.filter((code) => decided.includes(code))).toEqual(PAGE_ISSUE_CODES);
    expect(ISSUE_CODES.filter((code) => !PAGE_ISSUE_CODES.includes(code as never))).toEqual(['title_duplicate']);
  });

  it('a title shared with other URLs of the website is a duplicate, said with how many', () => {
    expect(issuesOf(healthyFacts, { ...pageContext, sameTitleUrls: 2 })).toEqual([expect.objectContaining({ code: 'title_duplicate', detail: '2 other pages have this title' })]);
  });

  it('a canonical naming the page itself (a fragment aside) is no issue', () => {
    expect(codesOf(factsWith({ canonical: 'https://www.example.com/widgets/blue#top' }), pageContext)).toEqual([]);
  });

  it('noindex is urgent when bots keep requesting the page or the sitemap lists it, and says so', () => {
    const facts = factsWith({ noindexBy: ['robots', 'googlebot'] });
    expect(issuesOf(facts, pageContext)[0]).toMatchObject({ code: 'noindex', urgent: false, detail: 'noindex for every bot, googlebot' });
    expect(issuesOf(facts, { ...pageContext, botRequests: 12, inSitemap: true })[0]).toMatchObject({
      code: 'noindex',
      urgent: true,
      detail: 'noindex for every bot, googlebot, yet bots requested it 12 times and the sitemap lists it: most urgent',
    });
  });

  it('an error page reports the error, not the content it lacks', () => {
    expect(codesOf(factsWith({ statusCode: 404, title: null, titleLength: 0, h1Count: 0, wordCount: 12 }), pageContext)).toEqual(['status_4xx']);
    expect(codesOf(factsWith({ statusCode: 500, noindexBy: ['robots'], wordCount: 3 }), pageContext)).toEqual(['noindex', 'status_5xx']);
  });

  it('lists issues most severe first and counts the critical ones', () => {
    const issues = issuesOf(factsWith({ noindexBy: ['robots'], description: null, wordCount: 10, canonical: 'https://other.example.net/' }), pageContext);
    expect(issues.map((found) => found.code)).toEqual(['noindex', 'canonical_other_origin', 'thin_content', 'description_missing']);
    expect(criticalIssueCount(issues)).toBe(1);
  });

  it("takes a website's own thresholds", () => {
    const facts = factsWith({ title: 'x'.repeat(70), titleLength: 70, wordCount: 150, imagesWithoutAlt: 2 });
    expect(codesOf(facts, pageContext)).toEqual(['thin_content', 'title_too_long', 'images_without_alt']);
    expect(codesOf(facts, pageContext, { ...DEFAULT_ISSUE_THRESHOLDS, titleMaxLength: 80, thinContentWords: 100, imagesWithoutAlt: 3 })).toEqual([]);
  });

  it('has a stable code and a one-line explanation for every issue', () => {
    expect(ISSUE_CODES).toHaveLength(15);
    for (const code of ISSUE_CODES) expect(ISSUE_CATALOG[code].explanation).toMatch(/^[A-Z][^\n]+\.$/);
  });
});
