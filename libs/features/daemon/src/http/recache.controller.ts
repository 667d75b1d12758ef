import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiDaemonEndpoint, bool, int, str } from './daemon-api-docs';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { CacheInvalidatedResult, InvalidateCache, RecacheAccepted, RequestRecache } from '@bpc/cache-operations';
import { BodyPipe } from '@bpc/platform';
import { HostPausedResult, HostResumedResult, PauseHostRecache, ResumeHostRecache } from '../host-recache-pause/host-recache-pause.commands';
import { PurgeQueue, QueuePurgedResult } from '../purge-queue/purge-queue.command';
import { PurgeQueueDto } from '../purge-queue/purge-queue.dto';
import { RequestRecacheDto } from '../request-recache/request-recache.dto';
import { HostBodyDto } from '../shared/host-body.dto';
import { InvalidateCacheDto } from '../invalidate-cache/invalidate-cache.dto';
import { invalidateBody, RecacheBody, recacheBody } from './cache-operation-bodies';
import { ResponseEnvelope, without } from './response-envelope';

const lenient = { forbidUnknownKeys: false };

/** Queue and cache control endpoints of the daemon API. */
@Controller('internal/cache')
@ApiTags('cache')
export class RecacheController {
  constructor(
    private readonly commands: CommandBus,
    private readonly envelope: ResponseEnvelope,
  ) {}

  @Post('recache')
  @ApiOperation({ summary: 'Queue URLs × dimensions of a host for recache' })
  @ApiDaemonEndpoint({
    host_id: int,
    urls_count: int,
    dimension_ids_count: int,
    entries_enqueued: int,
    priority: str,
    paused: bool,
    mode: str,
    receipt_id: { type: 'string', description: 'Recache receipt id (later form only): the public API reports per URL and dimension how the recache went, at `GET /api/websites/{website}/cache/receipts/{receipt_id}`' },
  })
  @HttpCode(200)
  async recache(@Req() request: FastifyRequest, @Body(new BodyPipe(RequestRecacheDto, lenient)) body: RequestRecacheDto) {
    const form = this.envelope.formOf(request);
    const input = { hostId: body.host_id, urls: body.urls, dimensionIds: body.dimension_ids, priority: body.priority, mode: body.mode };
    const accepted = await this.commands.execute<RequestRecache, RecacheAccepted>(new RequestRecache(input, 'daemon-api'));
    // The earlier form stays as it was: no `paused`, `mode` nor the receipt added later.
    return this.envelope.wrap(form, recacheBody(accepted), without<RecacheBody, 'paused' | 'mode' | 'receipt_id'>('paused', 'mode', 'receipt_id'));
  }

  @Post('queue/purge')
  @ApiOperation({ summary: "Remove a host's queued entries of the listed priorities" })
  @ApiDaemonEndpoint({ entries_purged: int })
  @HttpCode(200)
  async purge(@Req() request: FastifyRequest, @Body(new BodyPipe(PurgeQueueDto, lenient)) body: PurgeQueueDto) {
    const form = this.envelope.formOf(request);
    return this.envelope.wrap(form, await this.commands.execute<PurgeQueue, QueuePurgedResult>(new PurgeQueue(body.host_id, body.priorities)));
  }

  @Post('recache/pause')
  @ApiOperation({ summary: 'Pause draining of a host (three hours)' })
  @ApiDaemonEndpoint({ paused: bool, expires_at: { type: 'integer', description: 'Unix seconds' } })
  @HttpCode(200)
  async pause(@Req() request: FastifyRequest, @Body(new BodyPipe(HostBodyDto, lenient)) body: HostBodyDto) {
    const form = this.envelope.formOf(request);
    return this.envelope.wrap(form, await this.commands.execute<PauseHostRecache, HostPausedResult>(new PauseHostRecache(body.host_id)));
  }

  @Post('invalidate')
  @ApiOperation({ summary: 'Drop cache entries of URLs × dimensions now' })
  @ApiDaemonEndpoint({ host_id: int, urls_count: int, dimension_ids_count: int, entries_invalidated: int })
  @HttpCode(200)
  async invalidate(@Req() request: FastifyRequest, @Body(new BodyPipe(InvalidateCacheDto, lenient)) body: InvalidateCacheDto) {
    const form = this.envelope.formOf(request);
    const input = { hostId: body.host_id, urls: body.urls, dimensionIds: body.dimension_ids };
    const result = await this.commands.execute<InvalidateCache, CacheInvalidatedResult>(new InvalidateCache(input, 'daemon-api'));
    return this.envelope.wrap(form, invalidateBody(result));
  }

  @Post('recache/resume')
  @ApiOperation({ summary: 'Resume draining of a host' })
  @ApiDaemonEndpoint({ paused: bool })
  @HttpCode(200)
  async resume(@Req() request: FastifyRequest, @Body(new BodyPipe(HostBodyDto, lenient)) body: HostBodyDto) {
    const form = this.envelope.formOf(request);
    return this.envelope.wrap(form, await this.commands.execute<ResumeHostRecache, HostResumedResult>(new ResumeHostRecache(body.host_id)));
  }
}
