import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsString, MaxLength } from 'class-validator';
import { Omittable } from '@bpc/platform';
import { SELECTION_DOCS } from '../list-cache-entries/list-cache-entries.dto';
import { MAX_MATCHING_INVALIDATION } from './invalidate-matching-entries.command';

/** Body of POST /api/websites/{website}/cache/entries/invalidate. */
export class InvalidateMatchingEntriesDto {
  @ApiPropertyOptional(SELECTION_DOCS.prefix)
  @Omittable() @MaxLength(8192, { message: 'prefix takes at most 8192 characters' }) @IsString({ message: 'prefix must be a string' }) prefix?: string;
  @ApiPropertyOptional(SELECTION_DOCS.pattern)
  @Omittable() @IsString({ message: 'pattern must be a string' }) pattern?: string;
  @ApiPropertyOptional({ description: `Only count what would be dropped (default false). Counts are given however many entries match; a real run drops at most ${MAX_MATCHING_INVALIDATION} entries per call and refuses more.` })
  @Omittable() @IsBoolean({ message: 'dryRun must be true or false' }) dryRun?: boolean;
}

export class MatchingEntriesInvalidatedDto {
  @ApiProperty() dryRun!: boolean;
  @ApiProperty({ type: 'integer', description: 'Entries (URL × dimension) selected when the call ran' }) entriesMatched!: number;
  @ApiProperty({ type: 'integer', description: 'Distinct URLs among them' }) urlsMatched!: number;
  @ApiProperty({ type: 'integer', description: 'Entries dropped (the cache projection applied the CacheInvalidated event); 0 on a dry run' }) entriesInvalidated!: number;
}
