import { ApiPropertyOptional, ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength } from 'class-validator';
import { INSIGHT_METRICS, INTERVALS, SPLIT_BY } from '@bpc/explorer';
import { Omittable } from '@bpc/platform';
import { ExplorerFilters, QueryFilterDto } from '../data-explorer/query-explorer.dto';

// Types and sizes are checked here (the lowest decorator first, as in the
// query DTO); values (periods, filters, metric, interval, splitBy) by the
// explorer's rules in @bpc/explorer, which name the field they refuse.

/** Body of POST …/insights/summary. */
export class InsightsSummaryDto {
  @ApiPropertyOptional({ description: 'As the events explorer\'s `period`: a preset (`24h`, `7d`, `14d`, `28d`, `30d`, `90d`) or `YYYY-MM-DD,YYYY-MM-DD` (a time of day `YYYY-MM-DDTHH:mm` allowed), at most 365 days; default `30d`', example: '30d' })
  @Omittable() @MaxLength(100) @IsString({ message: 'period must be a string' }) period?: string;

  @ApiPropertyOptional({ description: 'Comparison window, whole days (`7d` … or `YYYY-MM-DD,YYYY-MM-DD`). Summary: default the equal-length window just before `period`; timeseries: comparison series only when sent' })
  @Omittable() @MaxLength(100) @IsString({ message: 'compPeriod must be a string' }) compPeriod?: string;

  @ExplorerFilters("The events explorer's filters (discovery lists fields and operators), applied to both windows") filters?: QueryFilterDto[];
}

/** Body of POST …/insights/bot-categories: one window, no comparison. */
export class InsightsBotCategoriesDto {
  @ApiPropertyOptional({ description: 'As the events explorer\'s `period`: a preset (`24h`, `7d`, `14d`, `28d`, `30d`, `90d`) or `YYYY-MM-DD,YYYY-MM-DD` (a time of day `YYYY-MM-DDTHH:mm` allowed), at most 365 days; default `30d`', example: '7d' })
  @Omittable() @MaxLength(100) @IsString({ message: 'period must be a string' }) period?: string;

  @ExplorerFilters("The events explorer's filters (discovery lists fields and operators), e.g. `verified` `eq` `yes`") filters?: QueryFilterDto[];
}

/** Body of POST …/insights/timeseries. */
export class InsightsTimeseriesDto extends InsightsSummaryDto {
  @ApiProperty({ enum: INSIGHT_METRICS, description: 'Bot requests: `requests`, `pages` (distinct URLs), `hit_rate`, `serve_time_p50`, `serve_time_p95` (ms). Search performance (whole days, no splitBy, the search-pages explorer\'s `url` filter): `clicks`, `impressions`, `ctr`, `position`', example: 'requests' })
  @IsDefined({ message: 'metric is required' }) @MaxLength(50) @IsString({ message: 'metric must be a string' }) metric!: string;

  @ApiPropertyOptional({ enum: INTERVALS, description: 'Bucket size; default `hour` when the window is at most 7 days, else `day`. `hour` over more than 31 days is refused; search metrics take `day` only' })
  @Omittable() @MaxLength(10) @IsString({ message: 'interval must be a string' }) interval?: string;

  @ApiPropertyOptional({ enum: SPLIT_BY, description: 'One series per value: `bot_family` (the recorded bot name, e.g. Googlebot), `cache_status` (hit, stale, miss, bypass), `status_class` (2xx …), `dimension` (e.g. desktop, mobile), `bot_category` (search, ai_search, ai_assistant, ai_training, social, seo_tool, monitoring, other), `bot_operator` (e.g. Google, OpenAI, unknown), `verified` and `robots_allowed` (yes, no, unknown), `format` (html, markdown). Bot-request metrics only' })
  @Omittable() @MaxLength(50) @IsString({ message: 'splitBy must be a string' }) splitBy?: string;
}

/** Body of POST …/insights/seo. */
export class SeoInsightsDto {
  @ApiPropertyOptional({ description: "As the page_changes explorer's `period` (rolling): a preset (`24h`, `7d`, `14d`, `28d`, `30d`, `90d`) or `YYYY-MM-DD,YYYY-MM-DD` (a time of day allowed), at most 365 days; default `7d`. Bounds the changes; the issue counts are the pages' latest facts", example: '7d' })
  @Omittable() @MaxLength(100) @IsString({ message: 'period must be a string' }) period?: string;
}

/** Body of POST …/insights/ai-crawlers: one window, the events filters, and which hostname's robots.txt. */
export class InsightsAiCrawlersDto {
  @ApiPropertyOptional({ description: 'As the events explorer\'s `period`: a preset (`24h`, `7d`, `14d`, `28d`, `30d`, `90d`) or `YYYY-MM-DD,YYYY-MM-DD` (a time of day `YYYY-MM-DDTHH:mm` allowed), at most 365 days; default `30d`', example: '7d' })
  @Omittable() @MaxLength(100) @IsString({ message: 'period must be a string' }) period?: string;

  @ExplorerFilters("The events explorer's filters (discovery lists fields and operators), applied to the recorded figures (not to the robots.txt verdicts)") filters?: QueryFilterDto[];

  @ApiPropertyOptional({ description: "Whose robots.txt is read: one of the website's hostnames (case aside); default its first", example: 'www.example.com' })
  @Omittable() @MaxLength(253) @IsString({ message: 'hostname must be a string' }) hostname?: string;
}
