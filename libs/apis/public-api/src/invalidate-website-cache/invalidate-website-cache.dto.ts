import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsString } from 'class-validator';
import { PUBLIC_URL_LIMITS } from '../cache-operations/website-urls';

const SIZE = `urls must hold 1 to ${PUBLIC_URL_LIMITS.invalidate} entries`;

/** Body of POST /api/websites/{website}/cache/invalidate. */
export class InvalidateWebsiteCacheDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: PUBLIC_URL_LIMITS.invalidate, description: "Absolute HTTP(S) URLs on the website's host, 1 to 1000 (counted as sent). Duplicates are removed silently.", example: ['https://www.example.com/pricing'] })
  @IsDefined({ message: 'urls is required' })
  @IsArray({ message: 'urls must be an array of URLs' })
  @ArrayMinSize(1, { message: SIZE })
  @ArrayMaxSize(PUBLIC_URL_LIMITS.invalidate, { message: SIZE })
  @IsString({ each: true, message: 'each entry of urls must be a string' })
  urls!: string[];
}

export class InvalidateWebsiteCacheResponseDto {
  @ApiProperty({ description: 'Cache entries (URLs × dimensions) that existed and were dropped', example: 2 }) entriesInvalidated!: number;
  @ApiProperty({ description: 'Distinct URLs taken from the request', example: 1 }) urlsAccepted!: number;
}
