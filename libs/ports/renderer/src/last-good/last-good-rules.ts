import type { HostDefinition } from '@bpc/domain';

/**
 * Last-good protection: a freshly produced page is judged against the
 * page's current entry before it replaces it, so a broken render (an app
 * shell with no text, a soft 404, a page cut short) never overwrites a good
 * one. Pure functions of the page, the entry and the host's rules, so every
 * rule is tested without a browser (docs/rendering.md, "Last-good protection").
 */

/** A host's rules (`hosts[].last_good` in the configuration). */
export interface LastGoodRules {
  /** false: every produced page is stored as it comes (the rules below are off). */
  readonly enabled: boolean;
  /** A 2xx page smaller than this × the last good page's bytes (same kind) keeps the old entry; 0 turns the rule off. */
  readonly minSizeRatio: number;
  /** A 2xx page below this many bytes whose `<title>` matches `soft404Title` is a soft 404. */
  readonly soft404SizeFloorBytes: number;
  readonly soft404Title: RegExp;
}

/** Titles of "not found" pages, matched case-insensitively. */
export const DEFAULT_SOFT_404_TITLE_PATTERN = "\\b404\\b|not found|does(?: not|n't) exist|no longer (?:exists|available)";

export const DEFAULT_LAST_GOOD_RULES: LastGoodRules = {
  enabled: true,
  minSizeRatio: 0.3,
  soft404SizeFloorBytes: 2048,
  soft404Title: new RegExp(DEFAULT_SOFT_404_TITLE_PATTERN, 'i'),
};

/** The host's configured rules (`hosts[].last_good`), or the defaults. */
export function lastGoodRulesOf(host: Pick<HostDefinition, 'last_good'>): LastGoodRules {
  const config = host.last_good;
  if (!config) return DEFAULT_LAST_GOOD_RULES;
  return {
    enabled: config.enabled,
    minSizeRatio: config.min_size_ratio,
    soft404SizeFloorBytes: config.soft_404_size_floor_bytes,
    soft404Title: new RegExp(config.soft_404_title_pattern, 'i'),
  };
}

/** The page just produced, as far as the rules look at it. */
export interface ProducedPage {
  readonly kind: 'render' | 'bypass';
  readonly statusCode: number;
  /** True when the status came from the page's own `prerender-status-code` meta tag, not from the origin's answer. */
  readonly statusSignalled: boolean;
  readonly contentType: string | undefined;
  readonly body: Buffer;
}

/** The page's current entry, as far as the rules look at it. */
export interface CurrentEntry {
  readonly kind: 'render' | 'bypass';
  readonly statusCode: number;
  readonly bytes: number;
}

export type LastGoodReason = 'blank' | 'soft-404' | 'smaller';

export type LastGoodVerdict =
  /** Store the page. */
  | { readonly kind: 'store' }
  /**
   * Keep the current entry; `detail` says why in words, the same words for
   * the same rule (render history groups by them: sizes and titles are in
   * the history's own columns and the log line, not here).
   */
  | { readonly kind: 'keep'; readonly reason: LastGoodReason; readonly detail: string }
  /** Store nothing and fail the refresh (retried like any failure): a page not worth caching, with no good entry to keep. */
  | { readonly kind: 'fail'; readonly reason: string };

/**
 * Whether `page` may replace `current`. Rules apply to a 2xx page against a
 * good (2xx) current entry, in this order:
 * - soft 404: the page signals 404/410 itself (`prerender-status-code`), or
 *   is under the size floor with a "not found" title;
 * - blank: an HTML page without visible text;
 * - smaller: under `minSizeRatio` × the current entry's bytes (same kind only:
 *   an origin's raw HTML and a browser's serialised DOM do not compare).
 * Redirects and the origin's own 4xx are real answers and always stored. A
 * blank page with no good entry to keep fails rather than being cached.
 */
export function judgeAgainstLastGood(page: ProducedPage, current: CurrentEntry | undefined, rules: LastGoodRules): LastGoodVerdict {
  if (!rules.enabled) return { kind: 'store' };
  const good = current !== undefined && isGoodStatus(current.statusCode) ? current : undefined;
  if (good && page.statusSignalled && (page.statusCode === 404 || page.statusCode === 410)) {
    return { kind: 'keep', reason: 'soft-404', detail: `the page signalled ${page.statusCode} (prerender-status-code) where the cached page is ${good.statusCode}` };
  }
  if (!isGoodStatus(page.statusCode)) return { kind: 'store' };
  const html = isHtml(page.contentType);
  if (good && html && page.body.length < rules.soft404SizeFloorBytes) {
    const title = titleOf(page.body);
    if (title && rules.soft404Title.test(title)) {
      return { kind: 'keep', reason: 'soft-404', detail: `a "not found" title on a page under ${rules.soft404SizeFloorBytes} bytes` };
    }
  }
  if (html && !hasVisibleText(page.body)) {
    if (good) return { kind: 'keep', reason: 'blank', detail: 'no visible text' };
    return { kind: 'fail', reason: 'blank page: no visible text' };
  }
  if (good && good.kind === page.kind && rules.minSizeRatio > 0 && page.body.length < rules.minSizeRatio * good.bytes) {
    return { kind: 'keep', reason: 'smaller', detail: `under ${Math.round(rules.minSizeRatio * 100)}% of the last good page's size` };
  }
  return { kind: 'store' };
}

/** A 2xx entry: what last-good protection keeps. */
export function isGoodStatus(statusCode: number): boolean {
  return statusCode >= 200 && statusCode <= 299;
}

/** HTML, or no content type at all (a render is always HTML). */
function isHtml(contentType: string | undefined): boolean {
  return contentType === undefined || /html/i.test(contentType);
}

/** Elements whose content is never shown as text (or is not the page's text: the head, its title). */
const HIDDEN_ELEMENTS = ['script', 'style', 'noscript', 'template', 'head', 'title', 'svg', 'iframe', 'object'];
/** Elements that are visible content without any text: an image-only page is not blank. */
const MEDIA_ELEMENTS = new Set(['img', 'picture', 'video']);
const NON_SPACE_TEXT = /[^\s\u00a0]/;

/**
 * True when the HTML shows some text (or an image or video): any character
 * but white space (and `&nbsp;`) outside tags, comments and elements whose
 * content is not shown (script, style, head …). A scan with `indexOf`
 * rather than regular expressions over the whole body: linear on a 16 MiB
 * page, and it stops at the first visible character. Text hidden by CSS
 * counts as visible (only a browser could tell).
 */
export function hasVisibleText(body: Buffer): boolean {
  // Lower-cased once, and only that string is scanned: lower-casing may change the length (İ), so indexes must not cross strings.
  const html = body.toString('utf8').toLowerCase();
  let at = 0;
  while (at < html.length) {
    const open = html.indexOf('<', at);
    const text = html.slice(at, open < 0 ? html.length : open);
    if (NON_SPACE_TEXT.test(text.replace(/&nbsp;|&#160;|&#xa0;/g, ''))) return true;
    if (open < 0) return false;
    if (html.startsWith('<!--', open)) {
      const end = html.indexOf('-->', open + 4);
      if (end < 0) return false;
      at = end + 3;
      continue;
    }
    const name = /^<([a-z][a-z0-9-]*)/.exec(html.slice(open, open + 40))?.[1];
    const close = html.indexOf('>', open);
    if (close < 0) return false;
    if (name && MEDIA_ELEMENTS.has(name)) return true;
    if (name && HIDDEN_ELEMENTS.includes(name) && html[close - 1] !== '/') {
      const end = html.indexOf(`</${name}`, close);
      if (end < 0) return false;
      at = html.indexOf('>', end);
      if (at < 0) return false;
      at += 1;
      continue;
    }
    at = close + 1;
  }
  return false;
}

/** The page's `<title>`, white space collapsed, at most 300 characters; '' when it has none. */
export function titleOf(body: Buffer): string {
  const head = body.subarray(0, 65_536).toString('utf8');
  const match = /<title[^>]*>([^<]*)<\/title\s*>/i.exec(head);
  if (!match) return '';
  return match[1]
    .replace(/&amp;/g, '&')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
}
