import type { PageFacts } from '@bpc/domain';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A page of the demo site as `demoPages` lists it: its place in the list (0 is the home page) says what kind of page it is. */
export interface DemoFactsPage {
  readonly url: string;
  readonly title: string;
  readonly index: number;
}

/**
 * What changed on the demo site's top pages in the last days, each from a
 * moment before today's midnight: a deploy that put `noindex` on /features
 * (bots still request it: the urgent case), /pricing losing its `Offer`
 * structured data and then changing its title, /docs rendering a fraction of
 * its text, /blog's canonical pointing elsewhere, and the home page losing
 * its description. Renders after each moment carry the new facts, so the
 * renderer's comparison finds the change.
 */
const STORY: readonly { readonly index: number; readonly at: number; readonly change: (facts: PageFacts) => PageFacts }[] = [
  { index: 4, at: -5 * DAY_MS + 10 * HOUR_MS, change: (f) => ({ ...f, canonical: 'https://{host}/blog/', canonicals: ['https://{host}/blog/'] }) },
  { index: 3, at: -4 * DAY_MS + 11 * HOUR_MS, change: (f) => ({ ...f, wordCount: 320 }) },
  { index: 1, at: -3 * DAY_MS + 14 * HOUR_MS, change: (f) => ({ ...f, jsonLdTypes: ['Product'], jsonLdBlocks: 1 }) },
  { index: 2, at: -2 * DAY_MS + 9 * HOUR_MS, change: (f) => ({ ...f, noindexBy: ['robots'] }) },
  { index: 1, at: -1 * DAY_MS + 8 * HOUR_MS, change: (f) => ({ ...f, title: 'Pricing plans — Example', titleLength: 23 }) },
  { index: 0, at: -1 * DAY_MS + 15 * HOUR_MS, change: (f) => ({ ...f, description: null }) },
];

/** The facts a page of the demo site had at first, by kind: landing pages healthy, blog posts long, docs medium, product pages thin. */
function baseFacts(page: DemoFactsPage, bytes: number): PageFacts {
  const { url, title, index } = page;
  const n = index - 5;
  const kind = index < 5 ? 'landing' : (['blog', 'docs', 'product'] as const)[n % 3]!;
  const heading = title.replace(/ — Example.*$/, '');
  const canonical = url.replace(/\?.*$/, '');
  return {
    statusCode: 200,
    bytes,
    soft404: false,
    title,
    titleLength: title.length,
    // Every ninth article has none: description_missing.
    description: kind !== 'landing' && n % 9 === 0 ? null : `${heading}: what Example does for bots, in short.`,
    lang: 'en',
    // Some docs pages put every section title in an h1: h1_multiple.
    h1Count: kind === 'docs' && n % 4 === 1 ? 3 : 1,
    firstH1: heading,
    // Product pages name their URL without the tracking parameter: canonical_elsewhere.
    canonical,
    canonicals: [canonical],
    noindexBy: [],
    nofollowBy: [],
    hreflangCount: 0,
    hreflangOffSite: 0,
    ogTitle: true,
    ogImage: kind !== 'docs',
    jsonLdTypes: kind === 'product' ? ['Offer', 'Product'] : index === 1 ? ['Offer', 'Product'] : kind === 'blog' ? ['Article'] : ['WebPage'],
    jsonLdBlocks: index === 1 ? 2 : 1,
    // A hand-edited block that does not parse on every eleventh post: structured_data_invalid.
    jsonLdInvalid: kind === 'blog' && n % 11 === 0 ? 1 : 0,
    microdataTypes: [],
    // Product pages have little text: thin_content.
    wordCount: kind === 'product' ? 120 + (n % 60) : kind === 'docs' ? 400 + (n % 400) : 900 + (index * 37) % 600,
    internalLinks: 40 + (index % 20),
    externalLinks: index % 4,
    // Every fifth product photo has no alt text: images_without_alt.
    imagesWithoutAlt: kind === 'product' && n % 5 === 0 ? 3 : 0,
  };
}

/** The facts of a demo page rendered at `atMs` (`todayMs` is today's UTC midnight, where the story's moments count from). */
export function demoPageFacts(page: DemoFactsPage, hostname: string, atMs: number, todayMs: number, bytes: number): PageFacts {
  let facts = baseFacts(page, bytes);
  for (const step of STORY) if (step.index === page.index && atMs >= todayMs + step.at) facts = step.change(facts);
  return facts.canonical?.includes('{host}') ? { ...facts, canonical: facts.canonical.replace('{host}', hostname), canonicals: facts.canonicals.map((c) => c.replace('{host}', hostname)) } : facts;
}
