import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsInt, IsString } from 'class-validator';
import { MAX_RECACHE_URLS } from '@bpc/domain';
import { Omittable } from '@bpc/platform';
import { HostBodyDto } from './host-body.dto';

/** `host_id`, `urls` (1 to 10,000) and optional `dimension_ids`: what recache and invalidate are about. */
export class HostTargetsDto extends HostBodyDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: MAX_RECACHE_URLS, description: "Absolute HTTP(S) URLs on one of the host's hostnames; normalised and de-duplicated", example: ['https://www.example.com/pricing'] })
  // IsDefined runs first; the others bottom-up: the array check comes first.
  @IsDefined({ message: 'urls is required' })
  @IsString({ each: true, message: 'each entry of urls must be a string' })
  @ArrayMaxSize(MAX_RECACHE_URLS, { message: `urls must hold 1 to ${MAX_RECACHE_URLS} entries` })
  @ArrayMinSize(1, { message: `urls must hold 1 to ${MAX_RECACHE_URLS} entries` })
  @IsArray({ message: 'urls must be an array of URLs' })
  urls!: string[];

  @ApiPropertyOptional({ type: [Number], description: "Cache dimensions; all of the host's when omitted", example: [1, 2] })
  @Omittable()
  // Decorators run bottom-up: the array check comes first.
  @IsInt({ each: true, message: 'each entry of dimension_ids must be an integer' })
  @IsArray({ message: 'dimension_ids must be an array of integers' })
  dimension_ids?: number[];
}
