/** Whose robots directives are recorded: every bot (`robots`), and the two search crawlers customers ask about by name. */
export const ROBOTS_SCOPES = ['robots', 'googlebot', 'bingbot'] as const;
export type RobotsScope = (typeof ROBOTS_SCOPES)[number];

/**
 * What a rendered page says to bots, read from the document we rendered and
 * the response headers it came with (docs/seo-health.md). Extracted once per
 * render that produced a body; issues and changes are derived from it.
 */
export interface PageFacts {
  /** Status of the produced page. */
  readonly statusCode: number;
  /** Size of the produced body, in bytes. */
  readonly bytes: number;
  /** The renderer judged the page a soft 404 (an error page answered with 2xx). */
  readonly soft404: boolean;
  /** The first `<title>`'s text, whitespace collapsed, cut to `MAX_FACT_TEXT` characters; null when there is none or it is empty. */
  readonly title: string | null;
  /** The title's length before it was cut (0 when none): a title longer than `MAX_FACT_TEXT` is stored cut and says so here. */
  readonly titleLength: number;
  /** The first non-empty `<meta name=description>`, cut like the title. */
  readonly description: string | null;
  readonly lang: string | null;
  readonly h1Count: number;
  /** The first `<h1>`'s text, cut like the title. */
  readonly firstH1: string | null;
  /** The canonical URL, absolute: from `<link rel=canonical>` first, else the `Link` header; null when none is a valid http(s) URL of at most `MAX_CANONICAL_LENGTH` characters. */
  readonly canonical: string | null;
  /** Every distinct valid canonical the page declares (document and headers), in order, at most `MAX_LISTED`. */
  readonly canonicals: readonly string[];
  /** Who says `noindex`: `robots` (every bot) or a bot's token (`googlebot`, `bingbot`), from metas and `X-Robots-Tag`. */
  readonly noindexBy: readonly RobotsScope[];
  /** Who says `nofollow`, likewise. */
  readonly nofollowBy: readonly RobotsScope[];
  readonly hreflangCount: number;
  /** `hreflang` alternates pointing at another origin. */
  readonly hreflangOffSite: number;
  readonly ogTitle: boolean;
  readonly ogImage: boolean;
  /** JSON-LD `@type`s (nested `@graph` included), distinct, sorted, at most `MAX_LISTED`. */
  readonly jsonLdTypes: readonly string[];
  readonly jsonLdBlocks: number;
  /** JSON-LD blocks that do not parse (or are larger than `MAX_JSON_LD_BYTES`). */
  readonly jsonLdInvalid: number;
  /** Microdata `itemtype`s, distinct, sorted, at most `MAX_LISTED`. */
  readonly microdataTypes: readonly string[];
  /** Words of visible text (scripts, styles and templates left out). */
  readonly wordCount: number;
  readonly internalLinks: number;
  readonly externalLinks: number;
  readonly imagesWithoutAlt: number;
}

/** Longest text kept for a title, description or heading: enough for any real one, bounded for a hostile one. */
export const MAX_FACT_TEXT = 512;
/** Most values kept in a list (canonicals, structured data types); counts stay exact. */
export const MAX_LISTED = 20;
/** Longest canonical URL kept: search engines ignore longer URLs, and a hostile page's twenty 100 KB canonicals must not bloat every cache entry and event. */
export const MAX_CANONICAL_LENGTH = 2048;
/** Largest JSON-LD block parsed; a larger one counts as invalid rather than cost a render seconds. */
export const MAX_JSON_LD_BYTES = 1_000_000;

/** Runs of whitespace (newlines included) as one space, trimmed: how a title, description or heading reads on one line. */
export const collapseWhitespace = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The canonical names the page itself (a fragment aside): a page that ranks as itself. */
export function canonicalNamesPage(canonical: string, pageUrl: string): boolean {
  const target = new URL(canonical);
  const page = new URL(pageUrl);
  target.hash = '';
  page.hash = '';
  return target.href === page.href;
}

/** The page says `noindex` to every bot, or to Google's or Bing's crawler. */
export function isNoindex(facts: Pick<PageFacts, 'noindexBy'>): boolean {
  return facts.noindexBy.length > 0;
}
