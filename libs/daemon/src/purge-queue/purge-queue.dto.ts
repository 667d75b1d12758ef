import { IsArray, IsIn } from 'class-validator';
import { Omittable } from '@bpc/platform';
import { Priority, PRIORITIES } from '@bpc/domain';
import { HostBodyDto } from '../shared/host-body.dto';

/** Body of POST /internal/cache/queue/purge. */
export class PurgeQueueDto extends HostBodyDto {
  @Omittable()
  @IsArray({ message: 'priorities must be an array' })
  @IsIn(PRIORITIES, { each: true, message: 'each priority must be "high", "normal" or "autorecache" (exact lower case)' })
  priorities?: Priority[];
}
