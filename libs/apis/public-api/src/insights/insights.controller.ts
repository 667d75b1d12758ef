import { Body, Controller, Inject, Post, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { GetInsightsAiCrawlers, GetInsightsBotCategories, GetInsightsSummary, GetInsightsTimeseries, GetSeoInsights, InsightsAiCrawlersResult, InsightsBotCategoriesResult, InsightsSummaryResult, InsightsTimeseriesResult, SeoInsightsResult } from '@bpc/explorer';
import type { FastifyReply } from 'fastify';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { APP_CONFIG, BodyPipe, CLOCK } from '@bpc/platform';
import { AuthorizedRequest, RequiresWebsite } from '../auth/bearer-auth.guard';
import { ApiExplorerStatement, ApiPublicEndpoint } from '../http/public-api-docs';
import { receivedAtMs } from '../http/received-at';
import { InsightsAiCrawlersDto, InsightsBotCategoriesDto, InsightsSummaryDto, InsightsTimeseriesDto, SeoInsightsDto } from './insights-body.dto';
import { InsightsAiCrawlersAnswerDto, InsightsBotCategoriesAnswerDto, InsightsSummaryAnswerDto, InsightsTimeseriesAnswerDto, SeoInsightsAnswerDto } from './insights-views.dto';

/** Aggregates for the dashboard and any client: any role on the website, and the platform module (as the Data Explorer). */
@Controller('api/websites/:website/insights')
@ApiTags('insights')
@ApiPublicEndpoint()
@ApiParam({ name: 'website', type: String, description: 'Website identifier' })
@RequiresWebsite({ role: 'readonly', platformModule: true })
export class InsightsController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('summary')
  @ApiOperation({ summary: 'Figures of a period against its comparison period: requests, pages, hit rate, serve times, 4xx/5xx shares, failed renders, new and lost pages' })
  @ApiOkResponse({ type: InsightsSummaryAnswerDto, description: '`{data: {current, previous, newPages, lostPages}, meta: {period, window, compPeriod, compWindow}}`' })
  @ApiExplorerStatement()
  summary(
    @Req() request: AuthorizedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new BodyPipe(InsightsSummaryDto, { forbidUnknownKeys: true })) body: InsightsSummaryDto,
  ): Promise<InsightsSummaryResult> {
    const { website } = request.access!;
    return this.queries.execute(new GetInsightsSummary(website.id, website.accountId, body, receivedAtMs(this.clock, reply)));
  }

  @Post('bot-categories')
  @ApiOperation({ summary: 'Who read the website in a period: bot requests by category (share, distinct pages), AI agents together, and the pages each AI category requested most' })
  @ApiOkResponse({ type: InsightsBotCategoriesAnswerDto, description: '`{data: {requests, categories: [{category, requests, share, pages}], aiAgents, topAiPages: [{category, url, requests}]}, meta: {period, window}}`' })
  @ApiExplorerStatement()
  botCategories(
    @Req() request: AuthorizedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new BodyPipe(InsightsBotCategoriesDto, { forbidUnknownKeys: true })) body: InsightsBotCategoriesDto,
  ): Promise<InsightsBotCategoriesResult> {
    const { website } = request.access!;
    return this.queries.execute(new GetInsightsBotCategories(website.id, website.accountId, body, receivedAtMs(this.clock, reply)));
  }

  @Post('ai-crawlers')
  @ApiOperation({
    summary:
      "Which AI crawlers the site's robots.txt allows, partly disallows or blocks, which crawl disallowed pages anyway (requests recorded robots_allowed = no, top URLs), and bot requests whose claim was proven false (verified = no: share, renders avoided, claimed bots, URLs)",
  })
  @ApiOkResponse({ type: InsightsAiCrawlersAnswerDto, description: '`{data: {robotsTxt, checkedPaths, summary, agents: [{name, operator, category, robotsTxtToken, fetchedAs, robots, disallowedPaths, requests, disallowedRequests, topDisallowedUrls}], spoofed}, meta: {period, window, hostname}}`' })
  @ApiExplorerStatement()
  aiCrawlers(
    @Req() request: AuthorizedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new BodyPipe(InsightsAiCrawlersDto, { forbidUnknownKeys: true })) body: InsightsAiCrawlersDto,
  ): Promise<InsightsAiCrawlersResult> {
    const { website } = request.access!;
    // The guard has refused unknown websites: one missing here is a configuration bug (500).
    const hostId = this.config.websites.find((w) => w.id === website.id)!.host_id;
    return this.queries.execute(new GetInsightsAiCrawlers(website.id, website.accountId, hostId, body, receivedAtMs(this.clock, reply)));
  }

  @Post('timeseries')
  @ApiOperation({ summary: 'One metric per hour or day over a period, optionally split (bot family, cache status, status class, dimension, bot category, operator, verification, robots.txt, answer format) and against a comparison period' })
  @ApiOkResponse({ type: InsightsTimeseriesAnswerDto, description: '`{data: {series: [{key, points: [{t, v}]}], comparison?}, meta}`' })
  @ApiExplorerStatement()
  timeseries(
    @Req() request: AuthorizedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new BodyPipe(InsightsTimeseriesDto, { forbidUnknownKeys: true })) body: InsightsTimeseriesDto,
  ): Promise<InsightsTimeseriesResult> {
    const { website } = request.access!;
    return this.queries.execute(new GetInsightsTimeseries(website.id, website.accountId, body, receivedAtMs(this.clock, reply)));
  }

  @Post('seo')
  @ApiOperation({ summary: 'SEO health: pages per issue code and severity (latest facts, and as of the end of each day of the period), and changes per severity over the period, in total and per day' })
  @ApiOkResponse({ type: SeoInsightsAnswerDto, description: '`{data: {issues, pagesWithIssues, pages, changes, changesByDay, pagesWithIssuesByDay, issuesByDay}, meta: {period, window}}`' })
  @ApiExplorerStatement()
  seo(
    @Req() request: AuthorizedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new BodyPipe(SeoInsightsDto, { forbidUnknownKeys: true })) body: SeoInsightsDto,
  ): Promise<SeoInsightsResult> {
    const { website } = request.access!;
    return this.queries.execute(new GetSeoInsights(website.id, website.accountId, body, receivedAtMs(this.clock, reply)));
  }
}
