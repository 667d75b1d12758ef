import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiDaemonEndpoint, obj } from './daemon-api-docs';
import { Controller, Get, Req } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { GetStatus, StatusSnapshot } from '../get-status/get-status.query';
import { ResponseEnvelope } from './response-envelope';

/** The earlier form has no per-host `paused`, nor the later `drain_estimate`. */
function withoutPaused(snapshot: StatusSnapshot): object {
  const queues = Object.fromEntries(Object.entries(snapshot.queues).map(([host, { paused: _paused, drain_estimate: _estimate, ...counts }]) => [host, counts]));
  return { ...snapshot, queues };
}

@Controller('status')
@ApiTags('status')
export class StatusController {
  constructor(
    private readonly queries: QueryBus,
    private readonly envelope: ResponseEnvelope,
  ) {}

  @Get()
  @ApiOperation({ summary: 'Daemon id, scheduler state and queue counts per host and priority' })
  @ApiDaemonEndpoint({ daemon: obj, internal_queue: obj, rs_capacity: obj, queues: { type: 'object', description: 'Per host id: `high`, `normal`, `autorecache` as `{total, due_now}`, `paused`, and `drain_estimate` (later form): per priority `{seconds, completed_per_minute}`, an estimate of the time to empty the queue at the last ten minutes\' completion rate plus a pause\'s remaining time (`seconds` null while nothing completed in that window)', additionalProperties: obj } })
  async status(@Req() request: FastifyRequest) {
    const form = this.envelope.formOf(request);
    return this.envelope.wrap(form, await this.queries.execute<GetStatus, StatusSnapshot>(new GetStatus()), withoutPaused);
  }
}
