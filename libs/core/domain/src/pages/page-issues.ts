import { canonicalNamesPage, isNoindex, PageFacts } from './page-facts';

export const ISSUE_SEVERITIES = ['critical', 'warning', 'notice'] as const;
export type IssueSeverity = (typeof ISSUE_SEVERITIES)[number];

/** Orders anything with a severity most severe first (stable: equal severities keep their order). */
export const mostSevereFirst = (a: { readonly severity: IssueSeverity }, b: { readonly severity: IssueSeverity }): number => ISSUE_SEVERITIES.indexOf(a.severity) - ISSUE_SEVERITIES.indexOf(b.severity);

/** Every issue a page can have, with its severity and what it means to a customer. The codes are stable: explorers filter on them and alerts name them. */
export const ISSUE_CATALOG = {
  noindex: { severity: 'critical', explanation: 'Bots are told not to index this page, so it cannot appear in search results.' },
  status_4xx: { severity: 'critical', explanation: 'The page answers with a client error (4xx): bots see no content.' },
  status_5xx: { severity: 'critical', explanation: 'The page answers with a server error (5xx): bots see no content and may drop it.' },
  soft_404: { severity: 'critical', explanation: 'The page looks like an error page but answers 200: search engines treat it as missing.' },
  canonical_other_origin: { severity: 'warning', explanation: 'The canonical URL points to another site, which is asked to rank instead of this page.' },
  canonical_elsewhere: { severity: 'notice', explanation: 'The canonical URL points to another page of this site, which ranks instead of this one.' },
  title_missing: { severity: 'warning', explanation: 'The page has no title: search results show one made up by the search engine.' },
  title_too_long: { severity: 'notice', explanation: 'The title is longer than search results show: its end is cut off.' },
  title_duplicate: { severity: 'warning', explanation: 'Other pages of this site have the same title: search engines cannot tell them apart.' },
  description_missing: { severity: 'notice', explanation: 'The page has no meta description: search results show a snippet chosen by the search engine.' },
  h1_missing: { severity: 'warning', explanation: 'The page has no main heading (h1).' },
  h1_multiple: { severity: 'notice', explanation: 'The page has more than one main heading (h1).' },
  structured_data_invalid: { severity: 'warning', explanation: 'A structured data (JSON-LD) block does not parse: rich results are lost.' },
  thin_content: { severity: 'warning', explanation: 'The page has little visible text: bots may judge it of little value.' },
  images_without_alt: { severity: 'notice', explanation: 'Images have no alternative text: bots cannot tell what they show.' },
} as const satisfies Record<string, { readonly severity: IssueSeverity; readonly explanation: string }>;

export type IssueCode = keyof typeof ISSUE_CATALOG;
export const ISSUE_CODES = Object.keys(ISSUE_CATALOG) as IssueCode[];

/** Issues that need the rest of the website: found when pages are read, never stored with a page, so no past day of a page can say them. */
export const WEBSITE_ISSUE_CODES = ['title_duplicate'] as const satisfies readonly IssueCode[];
export type PageIssueCode = Exclude<IssueCode, (typeof WEBSITE_ISSUE_CODES)[number]>;
/** The issues a page's own facts decide, in catalog order: what a page's stored issue codes can hold. */
export const PAGE_ISSUE_CODES = ISSUE_CODES.filter((code): code is PageIssueCode => !(WEBSITE_ISSUE_CODES as readonly IssueCode[]).includes(code));

/** A website's limits for the issues that have one (configurable per website). */
export interface IssueThresholds {
  /** Longest title, in characters, before `title_too_long`. */
  readonly titleMaxLength: number;
  /** Fewest words of visible text before `thin_content`. */
  readonly thinContentWords: number;
  /** Fewest images without alternative text that make `images_without_alt`. */
  readonly imagesWithoutAlt: number;
}

/** Google shows about 60 characters of a title; 200 words is where SEO tools commonly call content thin. */
export const DEFAULT_ISSUE_THRESHOLDS: IssueThresholds = { titleMaxLength: 60, thinContentWords: 200, imagesWithoutAlt: 1 };

/** What the rest of the website and its bot traffic say about the page, for the rules that look beyond one page. */
export interface PageContext {
  /** The page's own URL (absolute, normalised). */
  readonly url: string;
  /** Other URLs of the website whose latest title is the same. */
  readonly sameTitleUrls: number;
  /** Bot requests for the page in the period looked at. */
  readonly botRequests: number;
  /** The website's sitemap lists the page. */
  readonly inSitemap: boolean;
}

export interface PageIssue {
  readonly code: IssueCode;
  readonly severity: IssueSeverity;
  readonly explanation: string;
  /** The most urgent case of all: a `noindex` page that bots keep requesting or that the sitemap lists. */
  readonly urgent: boolean;
  /** What triggered it, for the customer (e.g. who says `noindex`, the canonical URL, the count). */
  readonly detail: string;
}

const issue = (code: IssueCode, detail: string, urgent = false): PageIssue => ({ code, severity: ISSUE_CATALOG[code].severity, explanation: ISSUE_CATALOG[code].explanation, urgent, detail });

/** The page's issues from its latest facts, most severe first (catalog order within a severity). */
export function issuesOf(facts: PageFacts, context: PageContext, thresholds: IssueThresholds = DEFAULT_ISSUE_THRESHOLDS): PageIssue[] {
  const found: PageIssue[] = [];
  if (isNoindex(facts)) found.push(noindexIssue(facts, context));
  if (facts.statusCode >= 400 && facts.statusCode < 500) found.push(issue('status_4xx', `status ${facts.statusCode}`));
  if (facts.statusCode >= 500) found.push(issue('status_5xx', `status ${facts.statusCode}`));
  if (facts.soft404) found.push(issue('soft_404', `status ${facts.statusCode}`));
  // An error page's content is not what bots would index: its title or word count would only bury the error.
  if (found.some((one) => one.code !== 'noindex')) return found;
  const canonical = canonicalIssue(facts.canonical, context.url);
  if (canonical) found.push(canonical);
  if (facts.title === null) found.push(issue('title_missing', 'no <title>'));
  else {
    if (facts.titleLength > thresholds.titleMaxLength) found.push(issue('title_too_long', `${facts.titleLength} characters (at most ${thresholds.titleMaxLength})`));
    if (context.sameTitleUrls > 0) found.push(issue('title_duplicate', `${context.sameTitleUrls} other ${context.sameTitleUrls === 1 ? 'page has' : 'pages have'} this title`));
  }
  if (facts.description === null) found.push(issue('description_missing', 'no <meta name="description">'));
  if (facts.h1Count === 0) found.push(issue('h1_missing', 'no <h1>'));
  if (facts.h1Count > 1) found.push(issue('h1_multiple', `${facts.h1Count} <h1> headings`));
  if (facts.jsonLdInvalid > 0) found.push(issue('structured_data_invalid', `${facts.jsonLdInvalid} of ${facts.jsonLdBlocks} JSON-LD blocks do not parse`));
  if (facts.wordCount < thresholds.thinContentWords) found.push(issue('thin_content', `${facts.wordCount} words (at least ${thresholds.thinContentWords})`));
  if (facts.imagesWithoutAlt >= thresholds.imagesWithoutAlt) found.push(issue('images_without_alt', `${facts.imagesWithoutAlt} ${facts.imagesWithoutAlt === 1 ? 'image' : 'images'} without alt`));
  return found.sort(mostSevereFirst);
}

function noindexIssue(facts: PageFacts, context: PageContext): PageIssue {
  const reasons = [context.botRequests > 0 ? `bots requested it ${context.botRequests} times` : '', context.inSitemap ? 'the sitemap lists it' : ''].filter(Boolean);
  const who = `noindex for ${facts.noindexBy.map((by) => (by === 'robots' ? 'every bot' : by)).join(', ')}`;
  return issue('noindex', reasons.length > 0 ? `${who}, yet ${reasons.join(' and ')}: most urgent` : who, reasons.length > 0);
}

/** `canonical_other_origin` or `canonical_elsewhere` when the canonical names another page; none when it names this one. */
function canonicalIssue(canonical: string | null, pageUrl: string): PageIssue | undefined {
  if (canonical === null) return undefined;
  if (new URL(canonical).origin !== new URL(pageUrl).origin) return issue('canonical_other_origin', canonical);
  return canonicalNamesPage(canonical, pageUrl) ? undefined : issue('canonical_elsewhere', canonical);
}

/** A page's issue codes counted by severity, as the explorers' columns hold them. */
export function criticalIssueCount(issues: readonly PageIssue[]): number {
  return issues.filter((found) => found.severity === 'critical').length;
}
