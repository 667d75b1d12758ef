import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsIn } from 'class-validator';
import { Omittable } from '@bpc/platform';
import { Priority, PRIORITIES } from '@bpc/domain';
import { HostBodyDto } from '../shared/host-body.dto';

/** Body of POST /internal/cache/queue/purge. */
export class PurgeQueueDto extends HostBodyDto {
  @ApiPropertyOptional({ enum: PRIORITIES, isArray: true, description: 'Priorities to purge; `high` and `normal` when omitted or empty (`autorecache` only when named)' })
  @Omittable()
  // Decorators run bottom-up: the array check comes first.
  @IsIn(PRIORITIES, { each: true, message: 'priorities: each entry must be "high", "normal" or "autorecache" (exact lower case)' })
  @IsArray({ message: 'priorities must be an array' })
  priorities?: Priority[];
}
