import { AccountLimits } from './account-limits';
import { Module } from '@nestjs/common';
import { DiscoverExplorersHandler } from './discover-explorers/discover-explorers.handler';
import { GenerateDemoDataHandler } from './generate-demo-data/generate-demo-data.handler';
import { ImportSearchPerformanceHandler } from './import-search-performance/import-search-performance.handler';
import { RunExplorerQueryHandler } from './run-explorer-query/run-explorer-query.handler';

/** Data Explorer query side; the importing module provides CqrsModule. */
@Module({ providers: [AccountLimits, DiscoverExplorersHandler, RunExplorerQueryHandler, GenerateDemoDataHandler, ImportSearchPerformanceHandler] })
export class ExplorerModule {}
