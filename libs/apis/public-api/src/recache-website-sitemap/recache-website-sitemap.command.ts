import type { RequestablePriority } from '@bpc/domain';

/** Recache the URLs of a sitemap on a website's host, on behalf of a token holder. */
export class RecacheWebsiteSitemap {
  constructor(
    readonly websiteId: string,
    readonly sitemapUrl: string,
    readonly priority: RequestablePriority,
    /** As sent: `YYYY-MM-DD` or an ISO timestamp with a zone. */
    readonly lastmodAfter?: string,
  ) {}
}

/** The public answer (`RecacheWebsiteSitemapResponseDto`), field by field. */
export interface WebsiteSitemapRecacheAccepted {
  readonly receiptId: string | null;
  readonly sitemapsRead: number;
  readonly urlsFound: number;
  readonly urlsAccepted: number;
  readonly entriesEnqueued: number;
  readonly skipped: { readonly offHost: number; readonly invalid: number; readonly overCap: number; readonly notModified: number; readonly duplicate: number };
}
