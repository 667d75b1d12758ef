import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsInt, IsString } from 'class-validator';
import { MAX_RECACHE_URLS } from '@bpc/domain';
import { Omittable } from '@bpc/platform';
import { HostBodyDto } from './host-body.dto';

/** `host_id`, `urls` (1 to 10,000) and optional `dimension_ids`: what recache and invalidate are about. */
export class HostTargetsDto extends HostBodyDto {
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
}
