import { IsArray, IsIn, IsOptional } from 'class-validator';
import { Priority, PRIORITIES } from '@bpc/domain';
import { HostBodyDto } from '../shared/host-body.dto';

/** Body of POST /internal/cache/queue/purge. */
export class PurgeQueueDto extends HostBodyDto {
  @IsOptional()
  @IsArray({ message: 'priorities must be an array' })
  @IsIn(PRIORITIES, { each: true, message: 'each priority must be "high", "normal" or "autorecache" (exact lower case)' })
  priorities?: Priority[];
}
