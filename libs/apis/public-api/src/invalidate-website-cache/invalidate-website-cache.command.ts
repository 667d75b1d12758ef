/** Drop the cache entries of URLs of a website's host, on behalf of a token holder. */
export class InvalidateWebsiteCache {
  constructor(
    readonly websiteId: string,
    readonly urls: readonly string[],
  ) {}
}

export interface WebsiteCacheInvalidated {
  /** Cache entries (URLs × dimensions) that existed and were dropped. */
  readonly entriesInvalidated: number;
  /** Distinct URLs taken from the request. */
  readonly urlsAccepted: number;
}
