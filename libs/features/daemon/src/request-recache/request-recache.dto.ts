import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn } from 'class-validator';
import { RECACHE_MODES, RecacheMode, REQUESTABLE_PRIORITIES, RequestablePriority } from '@bpc/domain';
import { Omittable } from '@bpc/platform';
import { HostTargetsDto } from '../shared/host-targets.dto';

/** Body of POST /internal/cache/recache, field by field as in the daemon specification. */
export class RequestRecacheDto extends HostTargetsDto {
  @ApiProperty({ enum: REQUESTABLE_PRIORITIES })
  @IsDefined({ message: 'priority is required' })
  @IsIn(REQUESTABLE_PRIORITIES, { message: 'priority must be "high" or "normal"' })
  priority!: RequestablePriority;

  @ApiPropertyOptional({ enum: RECACHE_MODES, description: 'Force a render or an origin fetch; the URL rules decide when omitted' })
  @Omittable() @IsIn(RECACHE_MODES, { message: 'mode must be "render" or "bypass"' }) mode?: RecacheMode;
}
