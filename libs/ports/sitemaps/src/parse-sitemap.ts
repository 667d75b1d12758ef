import { SaxesParser, type SaxesTagNS } from 'saxes';
import { DEFAULT_SITEMAP_LIMITS, SitemapRefused, type SitemapLimits } from './sitemap-limits';

/** One `<url>` of a urlset or one `<sitemap>` of an index, as written (checked later). */
export interface SitemapEntry {
  /** The `<loc>` text, trimmed; undefined when missing or longer than the limit. */
  readonly loc: string | undefined;
  /** The `<lastmod>` text, trimmed, when present. */
  readonly lastmod?: string;
}

export type SitemapKind = 'urlset' | 'sitemapindex';

export interface ParsedSitemap {
  readonly kind: SitemapKind;
  /** Entries in document order, at most the per-file cap (urlset) — an index over its cap is refused. */
  readonly entries: readonly SitemapEntry[];
  /** `<url>` entries past `maxUrlsPerFile`, not kept. */
  readonly overCap: number;
}

type ParserLimits = Pick<SitemapLimits, 'maxUrlsPerFile' | 'maxSitemapsPerIndex' | 'maxElementDepth' | 'maxTextLength'> & Partial<Pick<SitemapLimits, 'maxMarkupChars'>>;

/** Text handed to the XML parser at a time, so that a piece it holds is noticed before it grows far past `maxMarkupChars`. */
const FEED_CHARS = 64 * 1024;

const ENTRY_ELEMENT: Record<SitemapKind, string> = { urlset: 'url', sitemapindex: 'sitemap' };

/**
 * A strict, streaming sitemap parser (sitemaps.org 0.9) over saxes, fed text
 * as it arrives. What it refuses (`SitemapRefused`), and why:
 * - any DOCTYPE: entity declarations (billion laughs, external entities) can
 *   only come in one, and sitemaps never need one — refused outright, not
 *   parsed and ignored;
 * - anything not well-formed XML (an HTML page, JSON, binary) and references
 *   to entities XML does not predefine (saxes expands no custom entity);
 * - a root other than `<urlset>` or `<sitemapindex>` (an HTML document that
 *   happens to be well-formed, an RSS feed);
 * - elements nested deeper than `maxElementDepth` (a sitemap needs 3);
 * - an index listing more than `maxSitemapsPerIndex` sitemaps;
 * - a tag, comment, CDATA section or run of text longer than
 *   `maxMarkupChars`: the parser holds each whole until it ends.
 * Elements count in the sitemap namespace (any prefix) or in none (sitemaps
 * written without `xmlns`); extensions (`image:`, `xhtml:`, `news:` …) are
 * skipped.
 */
export class SitemapParser {
  private readonly sax = new SaxesParser({ xmlns: true, position: false });
  private kind: SitemapKind | undefined;
  private depth = 0;
  private readonly entries: SitemapEntry[] = [];
  private overCap = 0;
  /** Inside an entry: its loc and lastmod as read so far. */
  private entry: { loc?: string; lastmod?: string; tooLong?: boolean } | undefined;
  /** Inside `<loc>` or `<lastmod>` of an entry: the text so far. */
  private field: { name: 'loc' | 'lastmod'; text: string } | undefined;
  /** Characters fed since the parser last reported anything: about what it holds. */
  private held = 0;
  private readonly maxMarkupChars: number;

  constructor(private readonly limits: ParserLimits) {
    this.maxMarkupChars = limits.maxMarkupChars ?? DEFAULT_SITEMAP_LIMITS.maxMarkupChars;
    // Any report means the parser let go of what it held up to there (saxes keeps one handler per event: those below reset it too).
    for (const event of ['xmldecl', 'processinginstruction', 'comment', 'opentagstart', 'attribute'] as const) {
      this.sax.on(event as 'comment', () => (this.held = 0));
    }
    this.sax.on('doctype', () => {
      throw new SitemapRefused('the document has a DOCTYPE (entity declarations are not accepted in sitemaps)');
    });
    this.sax.on('opentag', (tag) => ((this.held = 0), this.open(tag)));
    this.sax.on('closetag', (tag) => ((this.held = 0), this.close(tag)));
    this.sax.on('text', (text) => ((this.held = 0), this.text(text)));
    this.sax.on('cdata', (text) => ((this.held = 0), this.text(text)));
  }

  /** Feeds the next piece of the document. */
  write(text: string): void {
    for (let at = 0; at < text.length; at += FEED_CHARS) {
      const piece = text.slice(at, at + FEED_CHARS);
      this.guard(() => this.sax.write(piece));
      this.held += piece.length;
      if (this.held > this.maxMarkupChars + FEED_CHARS) {
        throw new SitemapRefused(`a tag, comment or text longer than ${this.maxMarkupChars} characters (not a sitemap: a <loc> is at most ${this.limits.maxTextLength})`);
      }
    }
  }

  /** Ends the document: its entries, or `SitemapRefused` if it is not a complete sitemap. */
  end(): ParsedSitemap {
    this.guard(() => this.sax.close());
    if (!this.kind) throw new SitemapRefused('not a sitemap: the document is empty');
    return { kind: this.kind, entries: this.entries, overCap: this.overCap };
  }

  private guard(step: () => void): void {
    try {
      step();
    } catch (error) {
      if (error instanceof SitemapRefused) throw error;
      // saxes reports malformed XML and undefined entities with the position first; keep its words.
      throw new SitemapRefused(`not well-formed XML: ${(error as Error).message.split('\n')[0].slice(0, 200)}`);
    }
  }

  private open(tag: SaxesTagNS): void {
    this.depth += 1;
    if (this.depth > this.limits.maxElementDepth) throw new SitemapRefused(`elements nested deeper than ${this.limits.maxElementDepth} levels`);
    const name = SITEMAP_NAMESPACES.has(tag.uri) ? tag.local : undefined;
    if (this.depth === 1) {
      if (name !== 'urlset' && name !== 'sitemapindex') throw new SitemapRefused(`not a sitemap: the root element is <${tag.name}>, not <urlset> or <sitemapindex>`);
      this.kind = name;
      return;
    }
    if (this.depth === 2 && name === ENTRY_ELEMENT[this.kind!]) {
      this.entry = {};
      return;
    }
    if (this.depth === 3 && this.entry && (name === 'loc' || name === 'lastmod')) this.field = { name, text: '' };
  }

  private close(tag: SaxesTagNS): void {
    this.depth -= 1;
    if (this.depth === 2 && this.field) {
      const { name, text } = this.field;
      this.field = undefined;
      if (!this.entry) return;
      if (text.length > this.limits.maxTextLength) this.entry.tooLong = true;
      else this.entry[name] = text.trim();
      return;
    }
    if (this.depth === 1 && this.entry && SITEMAP_NAMESPACES.has(tag.uri) && tag.local === ENTRY_ELEMENT[this.kind!]) {
      const { loc, lastmod, tooLong } = this.entry;
      this.entry = undefined;
      this.add({ loc: tooLong || !loc ? undefined : loc, ...(lastmod ? { lastmod } : {}) });
    }
  }

  private text(text: string): void {
    // Text is only kept inside <loc>/<lastmod>, and no more of it than one character past the limit: the rest of a huge text node is not held.
    if (this.field && this.field.text.length <= this.limits.maxTextLength) this.field.text += text.slice(0, this.limits.maxTextLength + 1 - this.field.text.length);
  }

  private add(entry: SitemapEntry): void {
    if (this.kind === 'sitemapindex') {
      if (this.entries.length >= this.limits.maxSitemapsPerIndex) throw new SitemapRefused(`the sitemap index lists more than ${this.limits.maxSitemapsPerIndex} sitemaps`);
      this.entries.push(entry);
      return;
    }
    if (this.entries.length >= this.limits.maxUrlsPerFile) this.overCap += 1;
    else this.entries.push(entry);
  }
}

/** The sitemaps.org schema, Google's older one, and no namespace at all (sitemaps written without `xmlns`). */
const SITEMAP_NAMESPACES = new Set(['http://www.sitemaps.org/schemas/sitemap/0.9', 'http://www.google.com/schemas/sitemap/0.84', '']);

/** The whole document at once (tests, small bodies). */
export function parseSitemap(text: string, limits: ParserLimits): ParsedSitemap {
  const parser = new SitemapParser(limits);
  parser.write(text);
  return parser.end();
}
