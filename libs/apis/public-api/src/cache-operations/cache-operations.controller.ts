import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { BodyPipe } from '@bpc/platform';
import { AuthorizedRequest, RequiresWebsite } from '../auth/bearer-auth.guard';
import { ApiProjectionTimeout, ApiPublicEndpoint, ApiRefusesBadBodies } from '../http/public-api-docs';
import { InvalidateWebsiteCache, WebsiteCacheInvalidated } from '../invalidate-website-cache/invalidate-website-cache.command';
import { InvalidateWebsiteCacheDto, InvalidateWebsiteCacheResponseDto } from '../invalidate-website-cache/invalidate-website-cache.dto';
import { RecacheWebsite, WebsiteRecacheAccepted } from '../recache-website/recache-website.command';
import { RecacheWebsiteDto, RecacheWebsiteResponseDto } from '../recache-website/recache-website.dto';

const strict = { forbidUnknownKeys: true };

/** Cache operations change what bots are served: manager or above; no platform module needed. */
@Controller('api/websites/:website/cache')
@ApiTags('cache')
@ApiPublicEndpoint()
@ApiParam({ name: 'website', type: String, description: 'Website identifier' })
@RequiresWebsite({ role: 'manager', platformModule: false })
export class CacheOperationsController {
  constructor(private readonly commands: CommandBus) {}

  @Post('recache')
  @ApiOperation({ summary: 'Queue URLs for re-rendering (manager role or above)', description: 'Existing cache stays live until the new render completes.' })
  @ApiOkResponse({ type: RecacheWebsiteResponseDto })
  @ApiRefusesBadBodies()
  @ApiProjectionTimeout()
  @HttpCode(200)
  recache(@Req() request: AuthorizedRequest, @Body(new BodyPipe(RecacheWebsiteDto, strict)) body: RecacheWebsiteDto): Promise<WebsiteRecacheAccepted> {
    return this.commands.execute(new RecacheWebsite(request.access!.website.id, body.urls, body.priority ?? 'normal'));
  }

  @Post('invalidate')
  @ApiOperation({ summary: 'Drop cached entries of URLs now (manager role or above)', description: 'The next bot request triggers a fresh render and waits for it.' })
  @ApiOkResponse({ type: InvalidateWebsiteCacheResponseDto })
  @ApiRefusesBadBodies()
  @ApiProjectionTimeout()
  @HttpCode(200)
  invalidate(@Req() request: AuthorizedRequest, @Body(new BodyPipe(InvalidateWebsiteCacheDto, strict)) body: InvalidateWebsiteCacheDto): Promise<WebsiteCacheInvalidated> {
    return this.commands.execute(new InvalidateWebsiteCache(request.access!.website.id, body.urls));
  }
}
