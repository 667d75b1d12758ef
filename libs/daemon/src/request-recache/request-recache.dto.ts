import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsIn, IsInt, IsString } from 'class-validator';
import { Omittable } from '@bpc/platform';
import { MAX_RECACHE_URLS, RECACHE_MODES, RecacheMode, REQUESTABLE_PRIORITIES, RequestablePriority } from '@bpc/domain';

/** Body of POST /internal/cache/recache, field by field as in the daemon specification. */
export class RequestRecacheDto {
  @IsDefined({ message: 'host_id is required' }) @IsInt({ message: 'host_id must be an integer' }) host_id!: number;

  @IsDefined({ message: 'urls is required' })
  @IsArray({ message: 'urls must be an array of URLs' })
  @ArrayMinSize(1, { message: `urls must hold 1 to ${MAX_RECACHE_URLS} entries` })
  @ArrayMaxSize(MAX_RECACHE_URLS, { message: `urls must hold 1 to ${MAX_RECACHE_URLS} entries` })
  @IsString({ each: true, message: 'each entry of urls must be a string' })
  urls!: string[];

  @Omittable()
  // Decorators run bottom-up: the array check comes first.
  @IsInt({ each: true, message: 'each entry of dimension_ids must be an integer' })
  @IsArray({ message: 'dimension_ids must be an array of integers' })
  dimension_ids?: number[];

  @IsDefined({ message: 'priority is required' })
  @IsIn(REQUESTABLE_PRIORITIES, { message: 'priority must be "high" or "normal"' })
  priority!: RequestablePriority;

  @Omittable() @IsIn(RECACHE_MODES, { message: 'mode must be "render" or "bypass"' }) mode?: RecacheMode;
}
