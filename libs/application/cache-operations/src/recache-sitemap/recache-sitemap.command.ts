import type { RequestablePriority } from '@bpc/domain';
import type { SkippedUrls } from '@bpc/sitemaps';

/** Recache every URL of a sitemap (or sitemap index) on one host. */
export class RecacheSitemap {
  constructor(
    readonly hostId: number,
    readonly sitemapUrl: string,
    readonly priority: RequestablePriority,
    /** Epoch ms: only `<url>` entries whose `lastmod` is later (or absent) are taken. */
    readonly lastmodAfter?: number,
  ) {}
}

export interface SitemapRecacheAccepted {
  /** The receipt of every chunk recorded; null when no URL was taken (nothing recorded, no receipt). */
  readonly receiptId: string | null;
  readonly sitemapsRead: number;
  readonly urlsFound: number;
  readonly urlsAccepted: number;
  readonly entriesEnqueued: number;
  readonly skipped: SkippedUrls;
}
