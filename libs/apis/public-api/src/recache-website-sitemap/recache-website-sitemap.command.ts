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
