import { Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { ExplorerModule } from '@bpc/explorer';
import { IdentityModule } from '@bpc/identity';
import { HealthModule } from '@bpc/platform';
import { AdminController } from './admin/admin.controller';
import { BearerAuthGuard } from './auth/bearer-auth.guard';
import { DataExplorerController } from './data-explorer/data-explorer.controller';
import { PublicExceptionFilter } from './http/public-exception.filter';
import { SearchPerformanceController } from './search-performance/search-performance.controller';

/** The public, token-authenticated API (spec/public-api.md) plus the operator's admin endpoints. */
@Module({
  imports: [CqrsModule.forRoot(), HealthModule, IdentityModule, ExplorerModule],
  controllers: [DataExplorerController, SearchPerformanceController, AdminController],
  providers: [
    { provide: APP_FILTER, useClass: PublicExceptionFilter },
    { provide: APP_GUARD, useClass: BearerAuthGuard },
  ],
})
export class PublicApiModule {}
