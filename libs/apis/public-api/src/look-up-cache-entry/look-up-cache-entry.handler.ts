import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { CACHE_STORE, CacheEntry, CacheStore } from '@bpc/cache-store';
import type { AppConfig } from '@bpc/config';
import { AppError, Clock, HostCatalog, normalizeHttpUrl, storeUnavailable, validationError } from '@bpc/domain';
import { runAdmittedStatement } from '@bpc/explorer';
import { EXPLORER_STORE, ExplorerAdmission, ExplorerStore } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { onHost, websiteHost } from '../cache-entries/cache-entry-selection';
import { entryFacts } from '../cache-entries/entry-facts';
import { cacheEntryHitsSql, CacheEntryHitsRow } from './cache-entry-hits-sql';
import { CacheEntryDimensionView, CacheEntryLookup, LookUpCacheEntry } from './look-up-cache-entry.query';

/**
 * Reads the cache store once per configured dimension of the website's host,
 * then counts the bot requests served from each entry in one statement
 * through the explorer's admission queue and time budget (as the insights).
 */
@QueryHandler(LookUpCacheEntry)
export class LookUpCacheEntryHandler implements IQueryHandler<LookUpCacheEntry, CacheEntryLookup> {
  constructor(
    private readonly hosts: HostCatalog,
    @Inject(CACHE_STORE) private readonly cache: CacheStore,
    @Inject(EXPLORER_STORE) private readonly explorer: ExplorerStore,
    private readonly admission: ExplorerAdmission,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async execute({ websiteId, accountId, url: raw, receivedAtMs }: LookUpCacheEntry): Promise<CacheEntryLookup> {
    if (raw === undefined) throw validationError('url', 'url is required: the absolute URL of a page of the website');
    if (typeof raw !== 'string') throw validationError('url', 'url must be given once');
    const url = normalizeHttpUrl(raw);
    if (!url) throw validationError('url', 'url must be an absolute http(s) URL');
    const host = websiteHost(this.config, this.hosts, websiteId);
    // Another website's page answers as an unknown one: which hostnames other websites have is not this caller's to learn.
    if (!onHost(host, url)) throw new AppError('NOT_FOUND', "url is not a page of this website (not on its hostnames)", 'url');
    const found = await this.entriesOf(host.host_id, url.href, host.dimensions.map((d) => d.id));
    const hits = await this.hits(websiteId, accountId, url.href, found, receivedAtMs);
    const now = this.clock.now();
    const entries = host.dimensions.map((dimension, i): CacheEntryDimensionView => {
      const entry = found[i];
      const served = hits.get(dimension.id);
      const traffic = { lastServedAt: served ? new Date(served.lastServedMs).toISOString() : null, hits: served ? Number(served.hits) : 0 };
      if (!entry) return { dimensionId: dimension.id, dimension: dimension.name, cached: false, ...traffic };
      return { dimensionId: dimension.id, dimension: dimension.name, cached: true, ...entryFacts(entry, now), ...traffic };
    });
    return { url: url.href, entries };
  }

  private async entriesOf(hostId: number, url: string, dimensionIds: readonly number[]): Promise<(CacheEntry | undefined)[]> {
    try {
      return await Promise.all(dimensionIds.map(async (id) => (await this.cache.get(hostId, url, id))?.entry));
    } catch (error) {
      throw storeUnavailable('cache store unavailable', error);
    }
  }

  private async hits(websiteId: string, accountId: string, url: string, found: readonly (CacheEntry | undefined)[], receivedAtMs: number): Promise<Map<number, CacheEntryHitsRow>> {
    const rendered = found.flatMap((entry) => (entry ? [{ dimensionId: entry.dimensionId, renderedAt: entry.createdAt }] : []));
    if (rendered.length === 0) return new Map();
    const { sql, params } = cacheEntryHitsSql(websiteId, url, rendered);
    const runner = { store: this.explorer, admission: this.admission, config: this.config };
    const rows = await runAdmittedStatement<CacheEntryHitsRow>(runner, { filters: [], accountId, deadlineMs: receivedAtMs + this.config.explorer.query_timeout_ms }, sql, params);
    return new Map(rows.map((row) => [Number(row.dimensionId), row]));
  }
}
