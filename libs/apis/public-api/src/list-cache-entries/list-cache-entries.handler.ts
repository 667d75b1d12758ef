import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CACHE_STORE, CacheStore } from '@bpc/cache-store';
import type { AppConfig } from '@bpc/config';
import { Clock, HostCatalog, storeUnavailable } from '@bpc/domain';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { resolveEntrySelection } from '../cache-entries/cache-entry-selection';
import { entryFacts } from '../cache-entries/entry-facts';
import { PatternWalks } from '../cache-entries/pattern-walks';
import { CACHE_ENTRY_PAGE, CacheEntryListing, ListCacheEntries } from './list-cache-entries.query';

/** Pages through the website's host's entries in the cache store's order (URL, then dimension id). */
@QueryHandler(ListCacheEntries)
export class ListCacheEntriesHandler implements IQueryHandler<ListCacheEntries, CacheEntryListing> {
  constructor(
    private readonly hosts: HostCatalog,
    @Inject(CACHE_STORE) private readonly cache: CacheStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly walks: PatternWalks,
  ) {}

  async execute({ websiteId, body }: ListCacheEntries): Promise<CacheEntryListing> {
    const { host, selection } = resolveEntrySelection(this.config, this.hosts, websiteId, body);
    const page = body.page ?? 1;
    const perPage = body.perPage ?? CACHE_ENTRY_PAGE.perPage;
    const listed = await this.walks.run(host.host_id, selection, () =>
      this.cache.listEntries(host.host_id, selection, (page - 1) * perPage, perPage).catch((error: Error) => {
        throw storeUnavailable('cache store unavailable', error);
      }),
    );
    const names = new Map(host.dimensions.map((d) => [d.id, d.name]));
    const now = this.clock.now();
    return {
      data: listed.entries.map((entry) => ({ url: entry.url, dimensionId: entry.dimensionId, dimension: names.get(entry.dimensionId) ?? null, ...entryFacts(entry, now) })),
      meta: { page, perPage, total: listed.total, totalPages: Math.ceil(listed.total / perPage) },
    };
  }
}
