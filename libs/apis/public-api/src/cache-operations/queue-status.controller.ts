import { Controller, Get, Inject, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiProperty, ApiTags } from '@nestjs/swagger';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { QUEUE_STORE, QueueStore } from '@bpc/queue-store';
import { AuthorizedRequest, RequiresWebsite } from '../auth/bearer-auth.guard';
import { ApiPublicEndpoint } from '../http/public-api-docs';
import { QueueStatusView, readQueueStatus } from './queue-status';

class QueuedCountDto {
  @ApiProperty({ type: 'integer', description: "Entries queued (URLs × the host's dimensions)" }) total!: number;
  @ApiProperty({ type: 'integer', description: 'Of those, entries due now' }) due!: number;
}

class QueuesDto {
  @ApiProperty({ type: QueuedCountDto }) high!: QueuedCountDto;
  @ApiProperty({ type: QueuedCountDto }) normal!: QueuedCountDto;
}

class DrainEstimateDto {
  @ApiProperty({ type: 'integer', nullable: true, example: 540, description: 'Estimated seconds until the queue is empty: its entries at the recent completion rate, plus what is left of a pause. 0 for an empty queue; null while nothing completed in the last ten minutes (no rate yet). An estimate, not a promise.' })
  seconds!: number | null;
  @ApiProperty({ example: 12.5, description: 'Entries of this queue completed or given up per minute, averaged over the last ten minutes' }) completedPerMinute!: number;
}

class DrainEstimatesDto {
  @ApiProperty({ type: DrainEstimateDto }) high!: DrainEstimateDto;
  @ApiProperty({ type: DrainEstimateDto }) normal!: DrainEstimateDto;
}

class QueueStatusDto {
  @ApiProperty({ type: 'integer', example: 1, description: "The website's host (`websites[].host_id`), whose queues every website on it shares" }) hostId!: number;
  @ApiProperty({ type: QueuesDto }) queues!: QueuesDto;
  @ApiProperty({ description: "Whether draining of the host is paused (the operator's daemon pause)" }) paused!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: '2026-12-01T10:00:00.000Z', description: 'When the pause ends; null when not paused' })
  pausedUntil!: string | null;
  @ApiProperty({ type: DrainEstimatesDto, description: 'Estimated time to drain each queue (added field; an estimate from the last ten minutes, see docs/public-api.md)' })
  drainEstimate!: DrainEstimatesDto;
}

/** The queues of the website's host, for every role: reading them changes nothing; no platform module needed (as the cache operations). */
@Controller('api/websites/:website/cache')
@ApiTags('cache')
@ApiPublicEndpoint()
@ApiParam({ name: 'website', type: String, description: 'Website identifier' })
@RequiresWebsite({ role: 'readonly', platformModule: false })
export class QueueStatusController {
  constructor(
    @Inject(QUEUE_STORE) private readonly store: QueueStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Get('queue')
  @ApiOperation({
    summary: "The recache queues of the website's host: total and due now per priority, and its pause (any role)",
    description: "Counts of `high` and `normal` entries queued for the host (claimed entries being rendered are out of the queue), with an estimated time to drain each; the service's own `autorecache` queue is not shown.",
  })
  @ApiOkResponse({ description: "The host's queues and pause", type: QueueStatusDto })
  status(@Req() request: AuthorizedRequest): Promise<QueueStatusView> {
    const websiteId = request.access!.website.id;
    // The guard has refused unknown websites: one that is missing here is a configuration bug (500).
    const hostId = this.config.websites.find((w) => w.id === websiteId)!.host_id;
    return readQueueStatus(this.store, hostId, this.clock.now());
  }
}
