import { Body, Controller, HttpCode, Inject, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG, BodyPipe } from '@bpc/platform';
import { RecacheAccepted, RequestRecache } from '../request-recache/request-recache.command';
import { RequestRecacheDto } from '../request-recache/request-recache.dto';
import { successEnvelope } from './success-envelope';

@Controller('internal/cache')
export class RecacheController {
  constructor(
    private readonly commands: CommandBus,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Post('recache')
  @HttpCode(200)
  async recache(@Body(new BodyPipe(RequestRecacheDto, { forbidUnknownKeys: false })) body: RequestRecacheDto) {
    const input = { hostId: body.host_id, urls: body.urls, dimensionIds: body.dimension_ids, priority: body.priority, mode: body.mode };
    const accepted = await this.commands.execute<RequestRecache, RecacheAccepted>(new RequestRecache(input, 'daemon-api'));
    return successEnvelope(accepted, this.config.daemon.envelope);
  }
}
