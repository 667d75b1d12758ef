import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { CacheOperationsModule } from '@bpc/cache-operations';
import { ExplorerModule } from '@bpc/explorer';
import { IdentityModule } from '@bpc/identity';
import { HealthModule } from '@bpc/platform';
import { AdminController } from './admin/admin.controller';
import { AlertDeliveriesController } from './alert-deliveries/alert-deliveries.controller';
import { BearerAuthGuard } from './auth/bearer-auth.guard';
import { CacheEntriesController } from './cache-entries/cache-entries.controller';
import { CacheOperationsController } from './cache-operations/cache-operations.controller';
import { QueueStatusController } from './cache-operations/queue-status.controller';
import { DataExplorerController } from './data-explorer/data-explorer.controller';
import { DashboardSessionController } from './dashboard-session/dashboard-session.controller';
import { PublicApiBaseUrl } from './dashboard-session/public-api-base-url';
import { SessionViews } from './dashboard-session/session-views';
import { WebsiteViews } from './dashboard-session/website-views';
import { InsightsController } from './insights/insights.controller';
import { PublicExceptionFilter } from './http/public-exception.filter';
import { InvalidateMatchingEntriesHandler } from './invalidate-matching-entries/invalidate-matching-entries.handler';
import { InvalidateWebsiteCacheHandler } from './invalidate-website-cache/invalidate-website-cache.handler';
import { ListCacheEntriesHandler } from './list-cache-entries/list-cache-entries.handler';
import { LookUpCacheEntryHandler } from './look-up-cache-entry/look-up-cache-entry.handler';
import { PatternWalks } from './cache-entries/pattern-walks';
import { RecacheWebsiteHandler } from './recache-website/recache-website.handler';
import { RendersController } from './renders/renders.controller';
import { RecacheWebsiteSitemapController } from './recache-website-sitemap/recache-website-sitemap.controller';
import { RecacheWebsiteSitemapHandler } from './recache-website-sitemap/recache-website-sitemap.handler';
import { GetRecacheReceiptHandler } from './recache-receipts/get-recache-receipt.handler';
import { RecacheReceiptsController } from './recache-receipts/recache-receipts.controller';
import { OperatorSqlConsole } from './run-operator-sql/operator-sql-console';
import { SearchPerformanceController } from './search-performance/search-performance.controller';

/** The public, token-authenticated API (spec/public-api.md) plus the operator's admin endpoints. */
@Module({
  imports: [CqrsModule.forRoot(), HealthModule, IdentityModule, ExplorerModule, CacheOperationsModule],
  controllers: [DataExplorerController, SearchPerformanceController, CacheOperationsController, QueueStatusController, RecacheReceiptsController, DashboardSessionController, InsightsController, RendersController, AdminController, CacheEntriesController, RecacheWebsiteSitemapController, AlertDeliveriesController],
  providers: [
    RecacheWebsiteHandler,
    RecacheWebsiteSitemapHandler,
    GetRecacheReceiptHandler,
    InvalidateWebsiteCacheHandler,
    LookUpCacheEntryHandler,
    ListCacheEntriesHandler,
    InvalidateMatchingEntriesHandler,
    PatternWalks,
    OperatorSqlConsole,
    PublicApiBaseUrl,
    WebsiteViews,
    SessionViews,
    { provide: APP_FILTER, useClass: PublicExceptionFilter },
    { provide: APP_GUARD, useClass: BearerAuthGuard },
  ],
})
export class PublicApiModule {}
