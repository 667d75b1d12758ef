import { Body, Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DiscoverRenders, DiscoveryEntry, ExplorerQueryResult, GetRendersTimeseries, QueryRenders, RendersTimeseriesResult } from '@bpc/explorer';
import type { FastifyReply } from 'fastify';
import type { Clock } from '@bpc/domain';
import { BodyPipe, CLOCK } from '@bpc/platform';
import { AuthorizedRequest, RequiresWebsite } from '../auth/bearer-auth.guard';
import { ApiExplorerStatement, ApiPublicEndpoint } from '../http/public-api-docs';
import { receivedAtMs } from '../http/received-at';
import { QueryRendersDto, RendersTimeseriesDto } from './renders-body.dto';
import { RendersTimeseriesAnswerDto } from './renders-views.dto';

/** Render history (every render and origin fetch of the website's host): any role on the website, and the platform module, as the Data Explorer. */
@Controller('api/websites/:website/renders')
@ApiTags('renders')
@ApiPublicEndpoint()
@ApiParam({ name: 'website', type: String, description: 'Website identifier' })
@RequiresWebsite({ role: 'readonly', platformModule: true })
export class RendersController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOperation({ summary: "Discovery of render history: modes, columns, filters (the host's dimensions among them), periods and the account limits, shaped as one Data Explorer discovery entry" })
  @ApiOkResponse({
    description: '`{key: "renders", features, modes, periods, limits}`',
    schema: { type: 'object', properties: { key: { type: 'string', enum: ['renders'] }, features: { type: 'object' }, modes: { type: 'array', items: { type: 'object' } }, periods: { type: 'object' }, limits: { type: 'object', properties: { perPageMax: { type: 'integer' }, perPageDefault: { type: 'integer' }, exportRowCap: { type: 'integer' } } } } },
  })
  discover(@Req() request: AuthorizedRequest): Promise<DiscoveryEntry> {
    const { website } = request.access!;
    return this.queries.execute(new DiscoverRenders(website.id, website.accountId));
  }

  @Post('query')
  @ApiOperation({ summary: 'Render history, one page: one row per render (mode `renders`) or per outcome and reason (mode `reasons`), plus the resolved meta' })
  @ApiOkResponse({ description: '`{data: [row], meta}` as a Data Explorer query answers (`meta.explorerKey` is `renders`)', schema: { type: 'object', properties: { data: { type: 'array', items: { type: 'object', additionalProperties: true } }, meta: { type: 'object' } } } })
  @ApiExplorerStatement()
  query(
    @Req() request: AuthorizedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new BodyPipe(QueryRendersDto, { forbidUnknownKeys: true })) body: QueryRendersDto,
  ): Promise<ExplorerQueryResult> {
    const { website } = request.access!;
    return this.queries.execute(new QueryRenders(website.id, website.accountId, body, receivedAtMs(this.clock, reply)));
  }

  @Post('timeseries')
  @ApiOperation({ summary: 'Renders per hour or day: stored, kept and failed counts and render-time percentiles' })
  @ApiOkResponse({ type: RendersTimeseriesAnswerDto, description: '`{meta: {period, window, interval}, points: [{t, renders, stored, kept, failed, renderMsP50, renderMsP95}]}`' })
  @ApiExplorerStatement()
  timeseries(
    @Req() request: AuthorizedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Body(new BodyPipe(RendersTimeseriesDto, { forbidUnknownKeys: true })) body: RendersTimeseriesDto,
  ): Promise<RendersTimeseriesResult> {
    const { website } = request.access!;
    return this.queries.execute(new GetRendersTimeseries(website.id, website.accountId, body, receivedAtMs(this.clock, reply)));
  }
}
