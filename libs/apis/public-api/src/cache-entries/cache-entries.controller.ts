import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Clock, validationError } from '@bpc/domain';
import { BodyPipe, CLOCK } from '@bpc/platform';
import { AuthorizedRequest, RequiresWebsite } from '../auth/bearer-auth.guard';
import { ApiExplorerBusy, ApiProjectionTimeout, ApiPublicEndpoint, ApiPublicError, ApiRefusesBadBodies } from '../http/public-api-docs';
import { receivedAtMs } from '../http/received-at';
import { InvalidateMatchingEntries, MatchingEntriesInvalidated, MAX_MATCHING_INVALIDATION } from '../invalidate-matching-entries/invalidate-matching-entries.command';
import { InvalidateMatchingEntriesDto, MatchingEntriesInvalidatedDto } from '../invalidate-matching-entries/invalidate-matching-entries.dto';
import { CacheEntryListing, ListCacheEntries } from '../list-cache-entries/list-cache-entries.query';
import { CacheEntryListingDto, ListCacheEntriesDto } from '../list-cache-entries/list-cache-entries.dto';
import { CacheEntryLookup, LookUpCacheEntry } from '../look-up-cache-entry/look-up-cache-entry.query';
import { CacheEntryLookupDto } from '../look-up-cache-entry/look-up-cache-entry.dto';

const strict = { forbidUnknownKeys: true };

/**
 * The website's cache entries: read by any role (as the queue), dropped in
 * bulk by a manager or above (as the invalidate by URLs); no platform module
 * needed. Only the website's own host is ever read.
 */
@Controller('api/websites/:website/cache/entries')
@ApiTags('cache')
@ApiPublicEndpoint()
@ApiParam({ name: 'website', type: String, description: 'Website identifier' })
@RequiresWebsite({ role: 'readonly', platformModule: false })
export class CacheEntriesController {
  constructor(
    private readonly queries: QueryBus,
    private readonly commands: CommandBus,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get()
  @ApiOperation({
    summary: 'What is cached for one URL, per dimension, and how often bots were served it (any role)',
    description:
      "One item per configured dimension: cached or not, kind, fresh or stale, stored status, render and expiry times, size, render time, and the website's bot requests served from the entry (hit or stale) since it was rendered. A URL on no hostname of the website is 404.",
  })
  @ApiQuery({ name: 'url', type: String, required: true, description: 'Absolute URL of a page of the website', example: 'https://www.example.com/pricing' })
  @ApiOkResponse({ type: CacheEntryLookupDto })
  @ApiPublicError(400, 'VALIDATION_FAILED: url missing, given twice, or not an absolute http(s) URL; an unknown query parameter')
  @ApiPublicError(404, "NOT_FOUND (`field` url): the URL is not on the website's hostnames")
  @ApiExplorerBusy()
  @ApiPublicError(504, 'QUERY_TIMEOUT: counting the hits took longer than `explorer.query_timeout_ms`')
  lookUp(@Req() request: AuthorizedRequest, @Res({ passthrough: true }) reply: FastifyReply, @Query() query: Record<string, unknown>): Promise<CacheEntryLookup> {
    const unknown = Object.keys(query).find((key) => key !== 'url');
    if (unknown !== undefined) throw validationError(unknown, `unknown query parameter ${unknown}: only url is taken`);
    const { website } = request.access!;
    return this.queries.execute(new LookUpCacheEntry(website.id, website.accountId, query.url, receivedAtMs(this.clock, reply)));
  }

  @Post('query')
  @ApiOperation({
    summary: 'A page of cache entries whose URL starts with a prefix or matches an RE2 pattern (any role)',
    description: 'Entries by URL, then dimension id, with their metadata; `meta.total` counts every selected entry. Hits are not counted here (see the lookup of one URL).',
  })
  @ApiOkResponse({ type: CacheEntryListingDto })
  @ApiRefusesBadBodies()
  @HttpCode(200)
  list(@Req() request: AuthorizedRequest, @Body(new BodyPipe(ListCacheEntriesDto, strict)) body: ListCacheEntriesDto): Promise<CacheEntryListing> {
    return this.queries.execute(new ListCacheEntries(request.access!.website.id, body));
  }

  @Post('invalidate')
  @RequiresWebsite({ role: 'manager', platformModule: false })
  @ApiOperation({
    summary: 'Drop the cache entries whose URL starts with a prefix or matches an RE2 pattern; dryRun counts them first (manager role or above)',
    description: `Recorded as one CacheInvalidated event (source public-api) naming the matched URLs over the host's dimensions. At most ${MAX_MATCHING_INVALIDATION} entries per call: more is 400 naming prefix or pattern (a dry run still counts them).`,
  })
  @ApiOkResponse({ type: MatchingEntriesInvalidatedDto })
  @ApiRefusesBadBodies()
  @ApiProjectionTimeout()
  @HttpCode(200)
  invalidate(@Req() request: AuthorizedRequest, @Body(new BodyPipe(InvalidateMatchingEntriesDto, strict)) body: InvalidateMatchingEntriesDto): Promise<MatchingEntriesInvalidated> {
    return this.commands.execute(new InvalidateMatchingEntries(request.access!.website.id, body));
  }
}
