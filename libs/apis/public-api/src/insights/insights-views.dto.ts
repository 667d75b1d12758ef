import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ISSUE_CODES, ISSUE_SEVERITIES, PAGE_ISSUE_CODES } from '@bpc/domain';
import { INSIGHT_METRICS, INTERVALS, ROBOTS_STANCES, ROBOTS_TXT_STATES, SPLIT_BY } from '@bpc/explorer';

// Answer schemas, for the OpenAPI document and the clients typed from it.

export class InsightsWindowDto {
  @ApiProperty({ description: 'Start, ISO 8601 UTC (inclusive)', example: '2026-10-28T00:00:00.000Z' }) start!: string;
  @ApiProperty({ description: 'End, ISO 8601 UTC (exclusive)', example: '2026-11-27T00:00:00.000Z' }) end!: string;
}

/** One window's figures; ratios and serve times are null when it has no requests. */
export class InsightsFiguresDto {
  @ApiProperty({ type: 'integer', description: "Bot requests: the events explorer's `requests` mode `meta.total`" }) requests!: number;
  @ApiProperty({ type: 'integer', description: "Distinct page URLs requested: the `unique_pages` mode's `meta.total`" }) pages!: number;
  @ApiProperty({ type: 'number', nullable: true, description: 'Share of requests with cache status `hit`, 0..1 (4 decimals)' }) hitRate!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Median serve time, ms (exact)' }) serveTimeP50Ms!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: '95th percentile serve time, ms (exact)' }) serveTimeP95Ms!: number | null;
  @ApiProperty({ type: 'number', nullable: true, description: 'Share of requests answered 4xx, 0..1' }) share4xx!: number | null;
  @ApiProperty({ type: 'number', nullable: true, description: 'Share of requests answered 5xx, 0..1' }) share5xx!: number | null;
  @ApiProperty({ type: 'integer', description: 'Requests answered with a failed render: a miss answered 504 (render timed out) or 503 (render failed)' }) rendersFailed!: number;
}

export class InsightsSummaryDataDto {
  @ApiProperty({ type: InsightsFiguresDto }) current!: InsightsFiguresDto;
  @ApiProperty({ type: InsightsFiguresDto, description: 'The comparison window' }) previous!: InsightsFiguresDto;
  @ApiProperty({ type: 'integer', description: 'Pages requested in the main window only: the comparison mode\'s total for compCategory `new`' }) newPages!: number;
  @ApiProperty({ type: 'integer', description: 'Pages requested in the comparison window only: the total for compCategory `lost`' }) lostPages!: number;
}

export class InsightsSummaryMetaDto {
  @ApiProperty({ example: '30d' }) period!: string;
  @ApiProperty({ type: InsightsWindowDto }) window!: InsightsWindowDto;
  @ApiProperty({ description: 'As sent, or the window just before as `YYYY-MM-DD,YYYY-MM-DD` (exact instants when not whole days)' }) compPeriod!: string;
  @ApiProperty({ type: InsightsWindowDto }) compWindow!: InsightsWindowDto;
}

export class InsightsSummaryAnswerDto {
  @ApiProperty({ type: InsightsSummaryDataDto }) data!: InsightsSummaryDataDto;
  @ApiProperty({ type: InsightsSummaryMetaDto }) meta!: InsightsSummaryMetaDto;
}

export class InsightsBotCategoryDto {
  @ApiProperty({ description: 'Bot category as recorded: `search`, `ai_search`, `ai_assistant` (fetched because a person asked), `ai_training`, `social`, `seo_tool`, `monitoring`, `other`', example: 'ai_assistant' }) category!: string;
  @ApiProperty({ type: 'integer', description: 'Bot requests of the category' }) requests!: number;
  @ApiProperty({ type: 'number', description: "Of the window's bot requests, 0..1 (4 decimals)" }) share!: number;
  @ApiProperty({ type: 'integer', description: 'Distinct page URLs the category requested' }) pages!: number;
}

export class InsightsAiAgentsDto {
  @ApiProperty({ type: 'integer', description: 'Requests of AI search, AI assistant and AI training bots together' }) requests!: number;
  @ApiProperty({ type: 'number', nullable: true, description: "Of the window's bot requests, 0..1; null without requests" }) share!: number | null;
  @ApiProperty({ type: 'integer', description: 'Distinct page URLs they requested' }) pages!: number;
}

export class InsightsAiPageDto {
  @ApiProperty({ description: '`ai_search`, `ai_assistant` or `ai_training`', example: 'ai_assistant' }) category!: string;
  @ApiProperty({ description: 'Page URL', example: 'https://www.example.com/pricing' }) url!: string;
  @ApiProperty({ type: 'integer', description: 'Requests of the page by that category' }) requests!: number;
}

export class InsightsBotCategoriesDataDto {
  @ApiProperty({ type: 'integer', description: "Bot requests in the window: the events explorer's `requests` mode `meta.total` with the same filters" }) requests!: number;
  @ApiProperty({ type: [InsightsBotCategoryDto], description: 'Every category with requests in the window, most requests first' }) categories!: InsightsBotCategoryDto[];
  @ApiProperty({ type: InsightsAiAgentsDto }) aiAgents!: InsightsAiAgentsDto;
  @ApiProperty({ type: [InsightsAiPageDto], description: 'Up to 5 pages per AI category (ai_search, ai_assistant, ai_training, in that order), most requested first' }) topAiPages!: InsightsAiPageDto[];
}

export class InsightsBotCategoriesMetaDto {
  @ApiProperty({ example: '7d' }) period!: string;
  @ApiProperty({ type: InsightsWindowDto }) window!: InsightsWindowDto;
}

export class InsightsBotCategoriesAnswerDto {
  @ApiProperty({ type: InsightsBotCategoriesDataDto }) data!: InsightsBotCategoriesDataDto;
  @ApiProperty({ type: InsightsBotCategoriesMetaDto }) meta!: InsightsBotCategoriesMetaDto;
}

export class InsightsPointDto {
  @ApiProperty({ description: 'Bucket start, ISO 8601 UTC', example: '2026-11-26T00:00:00.000Z' }) t!: string;
  @ApiProperty({ type: 'number', nullable: true, description: 'The metric in the bucket: 0 for an empty bucket of a count, null for a ratio or a serve time' }) v!: number | null;
}

export class InsightsSeriesDto {
  @ApiProperty({ description: '`all` without splitBy, else the split value (e.g. `Googlebot`, `hit`, `4xx`, `mobile`, `ai_assistant`, `OpenAI`, `no`, `markdown`)', example: 'all' }) key!: string;
  @ApiProperty({ type: [InsightsPointDto], description: 'Every bucket of the window, oldest first' }) points!: InsightsPointDto[];
}

export class InsightsTimeseriesDataDto {
  @ApiProperty({ type: [InsightsSeriesDto], description: 'Largest series first' }) series!: InsightsSeriesDto[];
  @ApiPropertyOptional({ type: [InsightsSeriesDto], description: 'The same series over the comparison window (`t` in that window); only when compPeriod was sent' }) comparison?: InsightsSeriesDto[];
}

export class InsightsTimeseriesMetaDto {
  @ApiProperty({ enum: INSIGHT_METRICS }) metric!: string;
  @ApiProperty({ enum: INTERVALS }) interval!: string;
  @ApiPropertyOptional({ enum: SPLIT_BY }) splitBy?: string;
  @ApiProperty({ example: '30d' }) period!: string;
  @ApiProperty({ type: InsightsWindowDto }) window!: InsightsWindowDto;
  @ApiPropertyOptional() compPeriod?: string;
  @ApiPropertyOptional({ type: InsightsWindowDto }) compWindow?: InsightsWindowDto;
}

export class InsightsTimeseriesAnswerDto {
  @ApiProperty({ type: InsightsTimeseriesDataDto }) data!: InsightsTimeseriesDataDto;
  @ApiProperty({ type: InsightsTimeseriesMetaDto }) meta!: InsightsTimeseriesMetaDto;
}

export class SeverityCountsDto {
  @ApiProperty({ type: 'integer' }) critical!: number;
  @ApiProperty({ type: 'integer' }) warning!: number;
  @ApiProperty({ type: 'integer' }) notice!: number;
}

export class SeoIssueCountDto {
  @ApiProperty({ enum: ISSUE_CODES }) code!: string;
  @ApiProperty({ enum: ISSUE_SEVERITIES }) severity!: string;
  @ApiProperty({ type: 'integer', description: 'Pages (URL × dimension) that have the issue now' }) pages!: number;
}

export class SeoChangesDayDto extends SeverityCountsDto {
  @ApiProperty({ type: 'integer', description: "Epoch ms of the UTC day's start" }) t!: number;
}

export class SeoPagesDayDto extends SeverityCountsDto {
  @ApiProperty({ type: 'integer', description: "Epoch ms of the UTC day's start; the counts are pages (URL × dimension) as of the end of that day (now for today)" }) t!: number;
}

export class SeoIssuesDayDto {
  @ApiProperty({ type: 'integer', description: "Epoch ms of the UTC day's start; every other property is an issue code (all but `title_duplicate`) with the pages (URL × dimension) that had it as of the end of that day (now for today)" }) t!: number;
}
// One integer per page-level issue code, named after it: the catalog decides, as for `issues`.
for (const code of PAGE_ISSUE_CODES) ApiProperty({ type: 'integer' })(SeoIssuesDayDto.prototype, code);

export class SeoInsightsDataDto {
  @ApiProperty({ type: [SeoIssueCountDto], description: 'Every issue code, in catalog order, with the pages that have it now (0 included)' }) issues!: SeoIssueCountDto[];
  @ApiProperty({ type: SeverityCountsDto, description: 'Pages with at least one issue of each severity, now' }) pagesWithIssues!: SeverityCountsDto;
  @ApiProperty({ type: 'integer', description: 'Pages (URL × dimension) rendered with facts' }) pages!: number;
  @ApiProperty({ type: SeverityCountsDto, description: 'Changes in the window per severity (coalesced: page × dimension × field × day)' }) changes!: SeverityCountsDto;
  @ApiProperty({ type: [SeoChangesDayDto], description: 'The changes per UTC day; days without changes left out' }) changesByDay!: SeoChangesDayDto[];
  @ApiProperty({
    type: [SeoPagesDayDto],
    description:
      "Every UTC day the window touches, oldest first: pages with at least one issue of each severity as of the end of the day, each page with its latest render's issues at or before it (carried across days without renders). `title_duplicate` is left out (it needs the whole website as it was that day), so today's counts are `pagesWithIssues` less the pages whose only warning is a duplicate title",
  })
  pagesWithIssuesByDay!: SeoPagesDayDto[];
  @ApiProperty({ type: [SeoIssuesDayDto], description: "The same days, pages per issue code (every code but `title_duplicate`): today's are `issues`' pages" }) issuesByDay!: SeoIssuesDayDto[];
}

export class SeoInsightsMetaDto {
  @ApiProperty({ example: '7d' }) period!: string;
  @ApiProperty({ type: InsightsWindowDto }) window!: InsightsWindowDto;
}

export class SeoInsightsAnswerDto {
  @ApiProperty({ type: SeoInsightsDataDto }) data!: SeoInsightsDataDto;
  @ApiProperty({ type: SeoInsightsMetaDto }) meta!: SeoInsightsMetaDto;
}

export class RobotsTxtViewDto {
  @ApiProperty({ description: 'The robots.txt read', example: 'https://www.example.com/robots.txt' }) url!: string;
  @ApiProperty({ enum: ROBOTS_TXT_STATES, description: '`rules` (a 2xx, parsed), `none` (a 4xx: no file, everything allowed), `server_error` (a 5xx or another status: crawlers treat everything as disallowed), `unreachable` (not fetched: verdicts unknown), `unjudged` (more rules than judged here: verdicts unknown)' }) state!: string;
  @ApiProperty({ type: 'integer', nullable: true, description: "The answer's HTTP status; null without an answer" }) httpStatus!: number | null;
  @ApiProperty({ description: 'When it was fetched, ISO 8601 UTC (kept up to 5 minutes, 30 s after a failure)' }) fetchedAt!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'Why there are no rules to read; null for `rules`' }) reason!: string | null;
  @ApiProperty({ description: 'Only its first 500 KiB were read' }) truncated!: boolean;
}

export class UrlCountDto {
  @ApiProperty({ example: 'https://www.example.com/docs/setup' }) url!: string;
  @ApiProperty({ type: 'integer' }) requests!: number;
}

export class AiCrawlerDto {
  @ApiProperty({ description: 'The agent as recorded in `bot_name` (the events explorer\'s filter value)', example: 'GPTBot' }) name!: string;
  @ApiProperty({ example: 'OpenAI' }) operator!: string;
  @ApiProperty({ description: 'Bot category: `ai_search`, `ai_assistant`, `ai_training` (or `search`, `social` for the few the catalog files elsewhere)', example: 'ai_training' }) category!: string;
  @ApiProperty({ description: 'Its robots.txt product token', example: 'GPTBot' }) robotsTxtToken!: string;
  @ApiProperty({ type: 'string', nullable: true, description: 'For a robots.txt-only token (`Google-Extended`): the crawler that fetches for it; else null', example: null }) fetchedAs!: string | null;
  @ApiProperty({ enum: ROBOTS_STANCES, description: '`blocked` (may not fetch `/`), `partly_disallowed` (may fetch `/`, not some checked paths), `allowed` (every checked path), `unknown` (no robots.txt to judge)' }) robots!: string;
  @ApiProperty({ description: 'The robots.txt has a group of its own for its token (rules written for it); else the rules for all bots (`*`) apply' }) namedInRobotsTxt!: boolean;
  @ApiProperty({ type: [String], description: 'Checked paths it may not fetch (at most 5; `/` alone when blocked)' }) disallowedPaths!: string[];
  @ApiProperty({ type: 'integer', description: 'Its requests in the window' }) requests!: number;
  @ApiProperty({ type: 'integer', description: 'Its requests recorded `robots_allowed = no`: disallowed by the robots.txt in force, fetched anyway' }) disallowedRequests!: number;
  @ApiProperty({ type: [UrlCountDto], description: 'Its most requested disallowed URLs (at most 3), most first' }) topDisallowedUrls!: UrlCountDto[];
}

export class AiCrawlersSummaryDto {
  @ApiProperty({ type: 'integer' }) allowed!: number;
  @ApiProperty({ type: 'integer' }) partlyDisallowed!: number;
  @ApiProperty({ type: 'integer' }) blocked!: number;
  @ApiProperty({ type: 'integer' }) unknown!: number;
  @ApiProperty({ type: 'integer', description: 'Agents the robots.txt names (a group of their own)' }) namedInRobotsTxt!: number;
  @ApiProperty({ type: 'integer', description: 'Agents with requests in the window' }) agentsSeen!: number;
  @ApiProperty({ type: 'integer', description: 'Their requests together' }) requests!: number;
  @ApiProperty({ type: 'integer', description: 'Their requests recorded `robots_allowed = no`' }) disallowedRequests!: number;
  @ApiProperty({ type: 'integer', description: 'Agents with such requests: crawling pages they are disallowed from anyway' }) agentsIgnoringRobotsTxt!: number;
}

export class ClaimedBotCountDto {
  @ApiProperty({ description: 'The bot the User-Agent claimed to be', example: 'Googlebot' }) bot!: string;
  @ApiProperty({ type: 'integer' }) requests!: number;
}

export class SpoofedFiguresDto {
  @ApiProperty({ type: 'integer', description: 'Bot requests whose claim was proven false (`verified = no`)' }) requests!: number;
  @ApiProperty({ type: 'number', nullable: true, description: "Of the window's bot requests, 0..1 (4 decimals); null without requests" }) share!: number | null;
  @ApiProperty({ type: 'integer', description: 'Of them, misses answered 403 `UNVERIFIED_BOT`: renders the `spoofed_bots` policy did not start' }) rendersAvoided!: number;
  @ApiProperty({ type: 'integer', description: 'Of them, misses answered otherwise: renders they caused (`spoofed_bots: render`)' }) rendersCaused!: number;
  @ApiProperty({ type: [ClaimedBotCountDto], description: 'Bots most claimed falsely (at most 5)' }) topClaimedBots!: ClaimedBotCountDto[];
  @ApiProperty({ type: [UrlCountDto], description: 'URLs they requested most (at most 5); client addresses are not recorded' }) topUrls!: UrlCountDto[];
}

export class InsightsAiCrawlersDataDto {
  @ApiProperty({ type: RobotsTxtViewDto }) robotsTxt!: RobotsTxtViewDto;
  @ApiProperty({ type: [String], description: "Paths checked for every agent: `/`, the paths the robots.txt disallows (up to 20), the hostname's 5 most requested" }) checkedPaths!: string[];
  @ApiProperty({ type: AiCrawlersSummaryDto }) summary!: AiCrawlersSummaryDto;
  @ApiProperty({ type: [AiCrawlerDto], description: 'Every AI agent of the vendored ai.robots.txt list, most requests first, then by name' }) agents!: AiCrawlerDto[];
  @ApiProperty({ type: SpoofedFiguresDto }) spoofed!: SpoofedFiguresDto;
}

export class InsightsAiCrawlersMetaDto {
  @ApiProperty({ example: '7d' }) period!: string;
  @ApiProperty({ type: InsightsWindowDto }) window!: InsightsWindowDto;
  @ApiProperty({ description: 'The hostname whose robots.txt was read (lowercase)', example: 'www.example.com' }) hostname!: string;
}

export class InsightsAiCrawlersAnswerDto {
  @ApiProperty({ type: InsightsAiCrawlersDataDto }) data!: InsightsAiCrawlersDataDto;
  @ApiProperty({ type: InsightsAiCrawlersMetaDto }) meta!: InsightsAiCrawlersMetaDto;
}
