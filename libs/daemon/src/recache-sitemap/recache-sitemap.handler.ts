import { randomUUID } from 'node:crypto';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { HostCatalog, validationError } from '@bpc/domain';
import { SitemapRefused, type SitemapReadResult } from '@bpc/sitemaps';
import { RecacheAccepted, RequestRecache } from '../request-recache/request-recache.command';
import { RecacheSitemap, SitemapRecacheAccepted } from './recache-sitemap.command';
import { SitemapReaderProvider } from './sitemap-reader.provider';

/**
 * URLs per recorded request, by priority: the public recache's own per-call
 * limits, so a sitemap's chunks are requests the API would have taken one by
 * one (and each event stays small on the log).
 */
export const SITEMAP_CHUNK_URLS = { high: 100, normal: 1000 } as const;

/**
 * Reads the whole sitemap first (a refusal of any file refuses the call, and
 * nothing is recorded), then records the URLs in chunks through the daemon's
 * RequestRecache, `source: 'sitemap'`, every chunk under one receipt id.
 * A refusal is VALIDATION_FAILED naming `sitemapUrl`.
 */
@CommandHandler(RecacheSitemap)
export class RecacheSitemapHandler implements ICommandHandler<RecacheSitemap, SitemapRecacheAccepted> {
  constructor(
    private readonly commands: CommandBus,
    private readonly hosts: HostCatalog,
    private readonly sitemaps: SitemapReaderProvider,
  ) {}

  async execute({ hostId, sitemapUrl, priority, lastmodAfter }: RecacheSitemap): Promise<SitemapRecacheAccepted> {
    const host = this.hosts.host(hostId);
    if (!host) throw validationError('host_id', `host_id ${hostId}: host not found`);
    let read: SitemapReadResult;
    try {
      read = await this.sitemaps.reader.read({ sitemapUrl, site: { hostnames: host.hostnames, origin: host.origin }, lastmodAfter });
    } catch (error) {
      if (error instanceof SitemapRefused) throw validationError('sitemapUrl', `sitemap refused, nothing was queued: ${error.message}`);
      throw error;
    }
    const receiptId = read.urls.length > 0 ? randomUUID() : null;
    let entriesEnqueued = 0;
    const chunk = SITEMAP_CHUNK_URLS[priority];
    for (let at = 0; at < read.urls.length; at += chunk) {
      const accepted = await this.commands.execute<RequestRecache, RecacheAccepted>(
        new RequestRecache({ hostId, urls: read.urls.slice(at, at + chunk), priority }, 'sitemap', receiptId ?? undefined),
      );
      entriesEnqueued += accepted.entries_enqueued;
    }
    return { receiptId, sitemapsRead: read.sitemapsRead, urlsFound: read.urlsFound, urlsAccepted: read.urls.length, entriesEnqueued, skipped: read.skipped };
  }
}
