import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsInt, IsString } from 'class-validator';
import { Omittable } from '@bpc/platform';
import { MAX_INVALIDATE_URLS } from '@bpc/domain';
import { HostBodyDto } from '../shared/host-body.dto';

/** Body of POST /internal/cache/invalidate. */
export class InvalidateCacheDto extends HostBodyDto {
  @IsDefined({ message: 'urls is required' })
  @IsArray({ message: 'urls must be an array of URLs' })
  @ArrayMinSize(1, { message: `urls must hold 1 to ${MAX_INVALIDATE_URLS} entries` })
  @ArrayMaxSize(MAX_INVALIDATE_URLS, { message: `urls must hold 1 to ${MAX_INVALIDATE_URLS} entries` })
  @IsString({ each: true, message: 'each entry of urls must be a string' })
  urls!: string[];

  @Omittable()
  // Decorators run bottom-up: the array check comes first.
  @IsInt({ each: true, message: 'each entry of dimension_ids must be an integer' })
  @IsArray({ message: 'dimension_ids must be an array of integers' })
  dimension_ids?: number[];
}
