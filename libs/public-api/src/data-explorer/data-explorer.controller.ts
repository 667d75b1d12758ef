import { Body, Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { DiscoverExplorers, DiscoveryDocument, ExplorerQueryResult, RunExplorerQuery } from '@bpc/explorer';
import { BodyPipe } from '@bpc/platform';
import { AuthorizedRequest, RequiresWebsite } from '../auth/bearer-auth.guard';
import { QueryExplorerDto } from './query-explorer.dto';

/** Data Explorer: any role on the website, and the platform module. */
@Controller('api/websites/:website/data-explorer')
@RequiresWebsite({ role: 'readonly', platformModule: true })
export class DataExplorerController {
  constructor(private readonly queries: QueryBus) {}

  @Get()
  discover(@Req() request: AuthorizedRequest): Promise<DiscoveryDocument> {
    return this.queries.execute(new DiscoverExplorers(request.access!.website.accountId));
  }

  @Post(':explorerKey/query')
  @HttpCode(200)
  query(
    @Req() request: AuthorizedRequest,
    @Param('explorerKey') explorerKey: string,
    @Body(new BodyPipe(QueryExplorerDto, { forbidUnknownKeys: true })) body: QueryExplorerDto,
  ): Promise<ExplorerQueryResult> {
    const { website } = request.access!;
    return this.queries.execute(new RunExplorerQuery(website.id, website.accountId, explorerKey, body));
  }
}
