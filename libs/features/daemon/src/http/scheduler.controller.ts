import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiDaemonEndpoint, ApiNeedsSchedulerControl, str } from './daemon-api-docs';
import { Controller, HttpCode, Post, Req } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { FastifyRequest } from 'fastify';
import { SchedulerToggled, SetSchedulerPaused } from '../scheduler-control/scheduler-control.commands';
import { ResponseEnvelope } from './response-envelope';

/**
 * Whole-scheduler control. The answer carries `message` at the top level, as
 * the specification shows it, and in `data` like every other answer.
 */
@Controller('internal/scheduler')
@ApiTags('scheduler')
export class SchedulerController {
  constructor(
    private readonly commands: CommandBus,
    private readonly envelope: ResponseEnvelope,
  ) {}

  @Post('pause')
  @ApiOperation({ summary: "Stop this daemon's scheduler pulling (needs scheduler_control_api, else 403)" })
  @ApiDaemonEndpoint({ message: str }, { message: str })
  @ApiNeedsSchedulerControl()
  @HttpCode(200)
  pause(@Req() request: FastifyRequest) {
    return this.toggle(request, true);
  }

  @Post('resume')
  @ApiOperation({ summary: "Restart this daemon's scheduler (needs scheduler_control_api, else 403)" })
  @ApiDaemonEndpoint({ message: str }, { message: str })
  @ApiNeedsSchedulerControl()
  @HttpCode(200)
  resume(@Req() request: FastifyRequest) {
    return this.toggle(request, false);
  }

  private async toggle(request: FastifyRequest, paused: boolean) {
    const form = this.envelope.formOf(request);
    const result = await this.commands.execute<SetSchedulerPaused, SchedulerToggled>(new SetSchedulerPaused(paused));
    return { ...this.envelope.wrap(form, result), message: result.message };
  }
}
