import { Body, Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { DiscoverExplorers, DiscoveryDocument, EXPLORER_KEYS, ExplorerQueryResult, RunExplorerQuery } from '@bpc/explorer';
import type { FastifyReply } from 'fastify';
import type { Clock } from '@bpc/domain';
import { BodyPipe, CLOCK } from '@bpc/platform';
import { AuthorizedRequest, RequiresWebsite } from '../auth/bearer-auth.guard';
import { ApiExplorerStatement, ApiPublicEndpoint, ApiUnknownExplorer } from '../http/public-api-docs';
import { receivedAtMs } from '../http/received-at';
import { QueryExplorerDto } from './query-explorer.dto';

/** Data Explorer: any role on the website, and the platform module. */
@Controller('api/websites/:website/data-explorer')
@ApiTags('data-explorer')
@ApiPublicEndpoint()
@ApiParam({ name: 'website', type: String, description: 'Website identifier' })
@RequiresWebsite({ role: 'readonly', platformModule: true })
export class DataExplorerController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Discovery: explorers, modes, columns, filters, periods and the account limits' })
  @ApiOkResponse({ description: '`{explorers: [discovery entry], limits: {perPageMax, perPageDefault, exportRowCap}}`', schema: { type: 'object', properties: { explorers: { type: 'array', items: { type: 'object' } }, limits: { type: 'object', properties: { perPageMax: { type: 'integer' }, perPageDefault: { type: 'integer' }, exportRowCap: { type: 'integer' } } } } } })
  discover(@Req() request: AuthorizedRequest): Promise<DiscoveryDocument> {
    return this.queries.execute(new DiscoverExplorers(request.access!.website.accountId));
  }

  @Post(':explorerKey/query')
  @ApiOperation({ summary: 'Run a query: one page of rows plus the resolved meta' })
  @ApiParam({ name: 'explorerKey', type: String, enum: EXPLORER_KEYS })
  @ApiOkResponse({ description: '`{data: [row], meta}`', schema: { type: 'object', properties: { data: { type: 'array', items: { type: 'object', additionalProperties: true } }, meta: { type: 'object' } } } })
  @ApiExplorerStatement()
  @ApiUnknownExplorer()
  query(
    @Req() request: AuthorizedRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
    @Param('explorerKey') explorerKey: string,
    @Body(new BodyPipe(QueryExplorerDto, { forbidUnknownKeys: true })) body: QueryExplorerDto,
  ): Promise<ExplorerQueryResult> {
    const { website } = request.access!;
    return this.queries.execute(new RunExplorerQuery(website.id, website.accountId, explorerKey, body, receivedAtMs(this.clock, reply)));
  }
}
