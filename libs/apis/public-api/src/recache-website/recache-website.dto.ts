import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsString } from 'class-validator';
import { REQUESTABLE_PRIORITIES, RequestablePriority } from '@bpc/domain';
import { Omittable } from '@bpc/platform';
import { PUBLIC_URL_LIMITS } from '../cache-operations/website-urls';

/** Body of POST /api/websites/{website}/cache/recache, field by field as in the specification. */
export class RecacheWebsiteDto {
  @ApiProperty({ type: [String], minItems: 1, maxItems: PUBLIC_URL_LIMITS.normal, description: `Absolute HTTP(S) URLs on the website's host: up to ${PUBLIC_URL_LIMITS.high} when priority is high, ${PUBLIC_URL_LIMITS.normal} when normal (counted as sent). Duplicates (after normalisation) are removed silently.`, example: ['https://www.example.com/pricing'] })
  @IsDefined({ message: 'urls is required' })
  @IsArray({ message: 'urls must be an array of URLs' })
  @ArrayMaxSize(PUBLIC_URL_LIMITS.normal, { message: `urls must hold 1 to ${PUBLIC_URL_LIMITS.normal} entries` })
  @IsString({ each: true, message: 'each entry of urls must be a string' })
  urls!: string[];

  @ApiPropertyOptional({ enum: REQUESTABLE_PRIORITIES, description: 'Default `normal`; `high` re-renders ahead of the queue' })
  @Omittable() @IsIn(REQUESTABLE_PRIORITIES, { message: 'priority must be "high" or "normal"' }) priority?: RequestablePriority;
}

export class RecacheWebsiteResponseDto {
  @ApiProperty({ description: 'Render jobs created or kept in the queue: URLs × cache dimensions (URLs a rule ignores add none)', example: 2 }) entriesEnqueued!: number;
  @ApiProperty({ description: 'Distinct URLs taken from the request', example: 1 }) urlsAccepted!: number;
  @ApiProperty({
    description: 'Recache receipt (added field): `GET /api/websites/{website}/cache/receipts/{receiptId}` reports each entry queued → rendering → stored, kept or failed',
    example: '0193b0f4-6d2a-7c1e-9f3b-2a4c6e8d0f12',
  })
  receiptId!: string;
}
