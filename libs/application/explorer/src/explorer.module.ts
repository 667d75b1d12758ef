import { AccountLimits } from './account-limits';
import { Module } from '@nestjs/common';
import { ExplorerAdmission } from '@bpc/explorer-store';
import { explorerAdmissionProvider } from './admission/explorer-admission.provider';
import { DiscoverExplorersHandler } from './discover-explorers/discover-explorers.handler';
import { GenerateDemoDataHandler } from './generate-demo-data/generate-demo-data.handler';
import { GetInsightsAiCrawlersHandler } from './ai-crawlers/get-insights-ai-crawlers.handler';
import { RobotsTxtReaderProvider } from './ai-crawlers/robots-txt-reader.provider';
import { GetInsightsBotCategoriesHandler } from './insights/get-insights-bot-categories.handler';
import { GetInsightsSummaryHandler } from './insights/get-insights-summary.handler';
import { GetInsightsTimeseriesHandler } from './insights/get-insights-timeseries.handler';
import { GetSeoInsightsHandler } from './pages/seo-insights';
import { ImportSearchPerformanceHandler } from './import-search-performance/import-search-performance.handler';
import { RunExplorerQueryHandler } from './run-explorer-query/run-explorer-query.handler';
import { DiscoverRendersHandler } from './renders/discover-renders.handler';
import { GetRendersTimeseriesHandler } from './renders/get-renders-timeseries.handler';
import { QueryRendersHandler } from './renders/query-renders.handler';

/** Data Explorer and render history query side; the importing module provides CqrsModule. Exports import it for the same admission queue. */
@Module({
  providers: [AccountLimits, explorerAdmissionProvider, DiscoverExplorersHandler, RunExplorerQueryHandler, GenerateDemoDataHandler, ImportSearchPerformanceHandler, GetInsightsSummaryHandler, GetInsightsTimeseriesHandler, GetInsightsBotCategoriesHandler, GetSeoInsightsHandler, GetInsightsAiCrawlersHandler, RobotsTxtReaderProvider, DiscoverRendersHandler, QueryRendersHandler, GetRendersTimeseriesHandler],
  exports: [AccountLimits, ExplorerAdmission],
})
export class ExplorerModule {}
