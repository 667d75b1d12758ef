import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ImportSearchPerformance, SearchPerformanceImported } from '@bpc/explorer';
import { BodyPipe } from '@bpc/platform';
import { AuthorizedRequest, RequiresWebsite } from '../auth/bearer-auth.guard';
import { ImportSearchPerformanceDto } from './import-search-performance.dto';

/** Importing changes what every user of the website sees: manager or above, and the platform module. */
@Controller('api/websites/:website/search-performance')
@RequiresWebsite({ role: 'manager', platformModule: true })
export class SearchPerformanceController {
  constructor(private readonly commands: CommandBus) {}

  @Post('import')
  @HttpCode(200)
  import(@Req() request: AuthorizedRequest, @Body(new BodyPipe(ImportSearchPerformanceDto, { forbidUnknownKeys: true })) body: ImportSearchPerformanceDto): Promise<SearchPerformanceImported> {
    return this.commands.execute(new ImportSearchPerformance({ websiteId: request.access!.website.id, ...body, source: 'api' }));
  }
}
