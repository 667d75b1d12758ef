import { Module } from '@nestjs/common';
import { CqrsModule } from '@nestjs/cqrs';
import { InvalidateCacheHandler } from './invalidate-cache/invalidate-cache.handler';
import { QueueActivity } from './queue-activity';
import { RecacheSitemapHandler } from './recache-sitemap/recache-sitemap.handler';
import { SitemapReaderProvider } from './recache-sitemap/sitemap-reader.provider';
import { RequestRecacheHandler } from './request-recache/request-recache.handler';

/**
 * The cache operations (`RequestRecache`, `InvalidateCache`, `RecacheSitemap`),
 * so every API that queues or drops cache entries goes through the same
 * handlers and events, and maps their results to its own contract. The
 * importing app must provide the event log, queue store and cache store ports.
 */
@Module({
  imports: [CqrsModule],
  providers: [RequestRecacheHandler, InvalidateCacheHandler, RecacheSitemapHandler, SitemapReaderProvider, QueueActivity],
  exports: [QueueActivity, SitemapReaderProvider],
})
export class CacheOperationsModule {}
