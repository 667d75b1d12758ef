import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { CacheInvalidatedResult, InvalidateCache } from '@bpc/cache-operations';
import { CACHE_STORE, CacheStore } from '@bpc/cache-store';
import type { AppConfig } from '@bpc/config';
import { HostCatalog, normalizeHttpUrl, storeUnavailable, validationError } from '@bpc/domain';
import { APP_CONFIG } from '@bpc/platform';
import { onHost, resolveEntrySelection } from '../cache-entries/cache-entry-selection';
import { PatternWalks } from '../cache-entries/pattern-walks';
import { InvalidateMatchingEntries, MatchingEntriesInvalidated, MAX_MATCHING_INVALIDATION } from './invalidate-matching-entries.command';

/**
 * Finds the matching entries in the cache store, then drops them through
 * the cache operations' InvalidateCache (a CacheInvalidated event, source
 * `public-api`, naming the matched URLs × the host's dimensions), so the
 * event log stays the source of truth and a replay drops the same entries.
 */
@CommandHandler(InvalidateMatchingEntries)
export class InvalidateMatchingEntriesHandler implements ICommandHandler<InvalidateMatchingEntries, MatchingEntriesInvalidated> {
  constructor(
    private readonly commands: CommandBus,
    private readonly hosts: HostCatalog,
    @Inject(CACHE_STORE) private readonly cache: CacheStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly walks: PatternWalks,
  ) {}

  async execute({ websiteId, body }: InvalidateMatchingEntries): Promise<MatchingEntriesInvalidated> {
    const { host, selection, field } = resolveEntrySelection(this.config, this.hosts, websiteId, body);
    const matched = await this.walks.run(host.host_id, selection, () =>
      this.cache.summarize(host.host_id, selection, MAX_MATCHING_INVALIDATION).catch((error: Error) => {
        throw storeUnavailable('cache store unavailable, nothing was changed', error);
      }),
    );
    const counts = { entriesMatched: matched.entries, urlsMatched: matched.urls };
    if (body.dryRun) return { dryRun: true, ...counts, entriesInvalidated: 0 };
    if (matched.entries > MAX_MATCHING_INVALIDATION) {
      throw validationError(field, `${field} matches ${matched.entries} entries; one call invalidates at most ${MAX_MATCHING_INVALIDATION}: narrow the ${field} (or invalidate part by part)`);
    }
    // Entries left on a hostname the host no longer has cannot be served; InvalidateCache would refuse their URLs.
    const urls = matched.firstUrls.filter((url) => {
      const parsed = normalizeHttpUrl(url);
      return parsed !== undefined && onHost(host, parsed);
    });
    if (urls.length === 0) return { dryRun: false, ...counts, entriesInvalidated: 0 };
    const result = await this.commands.execute<InvalidateCache, CacheInvalidatedResult>(new InvalidateCache({ hostId: host.host_id, urls }, 'public-api'));
    return { dryRun: false, ...counts, entriesInvalidated: result.entriesInvalidated };
  }
}
