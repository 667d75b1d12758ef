import { Controller, Get, Inject } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG } from '@bpc/platform';
import { GetStatus, StatusSnapshot } from '../get-status/get-status.query';
import { successEnvelope } from './success-envelope';

@Controller('status')
export class StatusController {
  constructor(
    private readonly queries: QueryBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get()
  async status() {
    return successEnvelope(await this.queries.execute<GetStatus, StatusSnapshot>(new GetStatus()), this.config.daemon.envelope);
  }
}
