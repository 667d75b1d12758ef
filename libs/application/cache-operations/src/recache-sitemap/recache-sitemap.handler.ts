import { Inject } from '@nestjs/common';
import { CommandBus, CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppError, type Clock, HostCatalog, MAX_RECACHE_URLS, validationError, withCause } from '@bpc/domain';
import { CLOCK } from '@bpc/platform';
import { SitemapRefused, type SitemapReadResult } from '@bpc/sitemaps';
import { newReceiptId } from '../request-recache/receipt-id';
import { RecacheAccepted, RequestRecache } from '../request-recache/request-recache.command';
import { RecacheSitemap, SitemapRecacheAccepted } from './recache-sitemap.command';
import { SitemapReaderProvider } from './sitemap-reader.provider';

/**
 * How big one recorded request (RecacheRequested) of a sitemap may be: at
 * most the daemon's own per-request limit of URLs (MAX_RECACHE_URLS), and at
 * most this many characters of URLs, so that an event of long URLs stays well
 * under Kafka's default 1 MB message size. Fewer, larger chunks record and
 * project faster than many small ones (the sitemaps bench: about a quarter
 * less time with 10,000 than with 1,000).
 */
export const SITEMAP_CHUNK_CHARS = 512 * 1024;

/** `urls` cut into chunks of at most `maxUrls` URLs and `maxChars` characters (a longer URL goes alone). */
export function sitemapChunks(urls: readonly string[], maxUrls = MAX_RECACHE_URLS, maxChars = SITEMAP_CHUNK_CHARS): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let chars = 0;
  for (const url of urls) {
    // Quotes and a comma per URL in the event's JSON.
    const size = url.length + 3;
    if (chunk.length > 0 && (chunk.length >= maxUrls || chars + size > maxChars)) {
      chunks.push(chunk);
      chunk = [];
      chars = 0;
    }
    chunk.push(url);
    chars += size;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/**
 * Reads the whole sitemap first (a refusal of any file refuses the call, and
 * nothing is recorded), then records the URLs in chunks through
 * RequestRecache, `source: 'sitemap'`, every chunk under one receipt id.
 * A refusal is VALIDATION_FAILED naming `sitemapUrl`.
 */
@CommandHandler(RecacheSitemap)
export class RecacheSitemapHandler implements ICommandHandler<RecacheSitemap, SitemapRecacheAccepted> {
  constructor(
    private readonly commands: CommandBus,
    private readonly hosts: HostCatalog,
    private readonly sitemaps: SitemapReaderProvider,
    @Inject(CLOCK) private readonly clock: Clock,
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
    const receiptId = read.urls.length > 0 ? newReceiptId(this.clock.now()) : null;
    let entriesEnqueued = 0;
    let urlsQueued = 0;
    for (const urls of sitemapChunks(read.urls)) {
      try {
        const accepted = await this.commands.execute<RequestRecache, RecacheAccepted>(new RequestRecache({ hostId, urls, priority }, 'sitemap', receiptId ?? undefined));
        entriesEnqueued += accepted.entriesEnqueued;
      } catch (error) {
        throw urlsQueued > 0 ? partlyQueued(error, urlsQueued, read.urls.length, receiptId!) : error;
      }
      urlsQueued += urls.length;
    }
    return { receiptId, sitemapsRead: read.sitemapsRead, urlsFound: read.urlsFound, urlsAccepted: read.urls.length, entriesEnqueued, skipped: read.skipped };
  }
}

/**
 * A chunk failed after earlier ones were recorded: the answer must not say
 * "nothing was changed". Same code (and status) as the chunk's failure, its
 * message saying what is queued and that sending the sitemap again is safe
 * (URLs still queued are not queued twice); the chunk's error stays the cause.
 */
function partlyQueued(error: unknown, urlsQueued: number, urlsTotal: number, receiptId: string): unknown {
  if (!(error instanceof AppError)) return error;
  return withCause(
    new AppError(
      error.code,
      `${urlsQueued} of the sitemap's ${urlsTotal} URLs were queued under receipt ${receiptId} before queuing the rest failed (${error.code}); send the same sitemap again to queue the rest (URLs still queued are not queued twice)`,
      error.field,
      { receiptId, urlsQueued },
      error.retryAfterS,
    ),
    error,
  );
}
