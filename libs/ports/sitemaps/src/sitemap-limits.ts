/**
 * How much one sitemap recache may read. The per-file figures are the
 * sitemaps.org protocol's own (50,000 URLs, 50 MB uncompressed); the rest are
 * this service's, so that one call stays a bounded amount of work.
 */
export interface SitemapLimits {
  /** Bytes of one file as it comes over the wire (compressed or not). */
  readonly maxTransferBytesPerFile: number;
  /** Bytes of one file's XML once decompressed (sitemaps.org: 50 MB, 52,428,800 bytes). */
  readonly maxXmlBytesPerFile: number;
  /** `<url>` entries of one sitemap taken (sitemaps.org: 50,000); further ones are counted `overCap`. */
  readonly maxUrlsPerFile: number;
  /** `<sitemap>` entries of one index; an index listing more is refused. */
  readonly maxSitemapsPerIndex: number;
  /** Distinct URLs accepted by one call; further ones are counted `overCap`. */
  readonly maxUrlsPerCall: number;
  /** Element nesting of a sitemap document (a `<urlset>` needs 3); deeper is refused. */
  readonly maxElementDepth: number;
  /** Characters of one `<loc>` or `<lastmod>` text; a longer one is `invalid`. */
  readonly maxTextLength: number;
  /**
   * Characters the XML parser may hold at once: one tag with its attributes,
   * one comment, CDATA section or run of text. The parser keeps such a piece
   * whole until it ends, so without this a 50 MB comment is 100 MB of memory
   * per file; no sitemap has a piece anywhere near it (a `<loc>` is at most
   * `maxTextLength`).
   */
  readonly maxMarkupChars: number;
  /** Redirects followed per file, each checked like the first request. */
  readonly maxRedirects: number;
  /** One file: from the request to the last byte. */
  readonly fileTimeoutMs: number;
  /** The whole call: every file read. */
  readonly callTimeoutMs: number;
  /** Child sitemaps of an index read at once. */
  readonly concurrency: number;
  /** Calls one reader (one process) runs at once; later ones wait their turn (their timeouts start then). */
  readonly concurrentCalls: number;
  /** Calls waiting for one of those places; a call past them is refused: callers could otherwise stack hours of reading. */
  readonly maxWaitingCalls: number;
  /** Calls of one website (its hostnames and origin) running or waiting at once, so one website cannot take every place from the others. */
  readonly maxCallsPerSite: number;
}

export const DEFAULT_SITEMAP_LIMITS: SitemapLimits = {
  maxTransferBytesPerFile: 50 * 1024 * 1024,
  maxXmlBytesPerFile: 52_428_800,
  maxUrlsPerFile: 50_000,
  maxSitemapsPerIndex: 100,
  maxUrlsPerCall: 200_000,
  maxElementDepth: 8,
  maxTextLength: 8192,
  maxMarkupChars: 1024 * 1024,
  maxRedirects: 5,
  fileTimeoutMs: 30_000,
  callTimeoutMs: 120_000,
  concurrency: 4,
  concurrentCalls: 4,
  maxWaitingCalls: 16,
  maxCallsPerSite: 2,
};

/**
 * A sitemap that is not read at all: the reason is for people (and becomes
 * the API's `VALIDATION_FAILED` message naming `sitemapUrl`). Nothing of a
 * call that meets one is enqueued.
 */
export class SitemapRefused extends Error {
  override readonly name = 'SitemapRefused';
}
