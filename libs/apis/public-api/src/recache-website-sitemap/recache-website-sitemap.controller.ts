import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { BodyPipe } from '@bpc/platform';
import { AuthorizedRequest, RequiresWebsite } from '../auth/bearer-auth.guard';
import { ApiProjectionTimeout, ApiPublicEndpoint, ApiRefusesBadBodies } from '../http/public-api-docs';
import { RecacheWebsiteSitemap, WebsiteSitemapRecacheAccepted } from './recache-website-sitemap.command';
import { RecacheWebsiteSitemapDto, RecacheWebsiteSitemapResponseDto } from './recache-website-sitemap.dto';

/** Sitemap recache changes what bots are served, as recache does: manager or above. */
@Controller('api/websites/:website/cache')
@ApiTags('cache')
@ApiPublicEndpoint()
@ApiParam({ name: 'website', type: String, description: 'Website identifier' })
@RequiresWebsite({ role: 'manager', platformModule: false })
export class RecacheWebsiteSitemapController {
  constructor(private readonly commands: CommandBus) {}

  @Post('recache-sitemap')
  @ApiOperation({
    summary: 'Recache every URL of a sitemap or sitemap index (manager role or above)',
    description:
      "Reads the sitemap (gzip too; an index's sitemaps one level deep) under the renderer's network rules, keeps the URLs on the website's hostnames (optionally only those modified after `lastmodAfter`) and queues them in chunks under one receipt. A sitemap that cannot be read whole — internal address, redirect to another host, not XML, a DOCTYPE or entity declaration, too large, nested too deep, too many sitemaps — is 400 `VALIDATION_FAILED` with `field: \"sitemapUrl\"`, and nothing is queued. Limits: docs/sitemaps.md.",
  })
  @ApiOkResponse({ type: RecacheWebsiteSitemapResponseDto })
  @ApiRefusesBadBodies()
  @ApiProjectionTimeout()
  @HttpCode(200)
  recacheSitemap(@Req() request: AuthorizedRequest, @Body(new BodyPipe(RecacheWebsiteSitemapDto, { forbidUnknownKeys: true })) body: RecacheWebsiteSitemapDto): Promise<WebsiteSitemapRecacheAccepted> {
    return this.commands.execute(new RecacheWebsiteSitemap(request.access!.website.id, body.sitemapUrl, body.priority ?? 'normal', body.lastmodAfter));
  }
}
