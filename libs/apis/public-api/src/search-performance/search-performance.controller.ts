import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ImportSearchPerformance, SearchPerformanceImported } from '@bpc/explorer';
import { BodyPipe } from '@bpc/platform';
import { AuthorizedRequest, RequiresWebsite } from '../auth/bearer-auth.guard';
import { ApiPublicEndpoint, ApiRefusesBadBodies } from '../http/public-api-docs';
import { ImportSearchPerformanceDto } from './import-search-performance.dto';

/** Importing changes what every user of the website sees: manager or above, and the platform module. */
@Controller('api/websites/:website/search-performance')
@RequiresWebsite({ role: 'manager', platformModule: true })
@ApiTags('search-performance')
@ApiPublicEndpoint()
@ApiParam({ name: 'website', type: String, description: 'Website identifier' })
export class SearchPerformanceController {
  constructor(private readonly commands: CommandBus) {}

  @Post('import')
  @ApiOperation({ summary: 'Import one day (CSV) or a searchanalytics.query response (manager role or above)' })
  @ApiOkResponse({ description: '`{websiteId, days: [{date, grain, rows}]}`', schema: { type: 'object', properties: { websiteId: { type: 'string' }, days: { type: 'array', items: { type: 'object', properties: { date: { type: 'string' }, grain: { type: 'string' }, rows: { type: 'integer' } } } } } } })
  @ApiRefusesBadBodies()
  @HttpCode(200)
  import(@Req() request: AuthorizedRequest, @Body(new BodyPipe(ImportSearchPerformanceDto, { forbidUnknownKeys: true })) body: ImportSearchPerformanceDto): Promise<SearchPerformanceImported> {
    // The authorised website wins over anything the body says.
    return this.commands.execute(new ImportSearchPerformance({ ...body, websiteId: request.access!.website.id, source: 'api' }));
  }
}
