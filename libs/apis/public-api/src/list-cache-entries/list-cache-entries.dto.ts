import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { Omittable } from '@bpc/platform';
import { CACHE_ENTRY_PAGE } from './list-cache-entries.query';

/** Bounds shared by the listing and the matching invalidation. */
export const SELECTION_DOCS = {
  prefix: {
    description: "An absolute http(s) URL on one of the website's hostnames: entries whose URL starts with it (normalised as cache keys are). Exactly one of prefix and pattern.",
    example: 'https://www.example.com/blog/',
  },
  pattern: {
    description: 'An RE2 regular expression searched in the whole URL (anchor it with ^ and $ to match all of it; at most 500 characters and 1000 counted repetitions). Exactly one of prefix and pattern.',
    example: '^https://www\\.example\\.com/products/[0-9]+$',
  },
} as const;

/** Body of POST /api/websites/{website}/cache/entries/query. */
export class ListCacheEntriesDto {
  @ApiPropertyOptional(SELECTION_DOCS.prefix)
  @Omittable() @MaxLength(8192, { message: 'prefix takes at most 8192 characters' }) @IsString({ message: 'prefix must be a string' }) prefix?: string;
  @ApiPropertyOptional(SELECTION_DOCS.pattern)
  @Omittable() @IsString({ message: 'pattern must be a string' }) pattern?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: CACHE_ENTRY_PAGE.pageMax, description: '1-based page; default 1; a page past the last answers no rows' })
  @Omittable()
  @Max(CACHE_ENTRY_PAGE.pageMax, { message: `page must be an integer from 1 to ${CACHE_ENTRY_PAGE.pageMax}` })
  @Min(1, { message: `page must be an integer from 1 to ${CACHE_ENTRY_PAGE.pageMax}` })
  @IsInt({ message: `page must be an integer from 1 to ${CACHE_ENTRY_PAGE.pageMax}` })
  page?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: CACHE_ENTRY_PAGE.perPageMax, description: `Entries per page; default ${CACHE_ENTRY_PAGE.perPage}` })
  @Omittable()
  @Max(CACHE_ENTRY_PAGE.perPageMax, { message: `perPage must be an integer from 1 to ${CACHE_ENTRY_PAGE.perPageMax}` })
  @Min(1, { message: `perPage must be an integer from 1 to ${CACHE_ENTRY_PAGE.perPageMax}` })
  @IsInt({ message: `perPage must be an integer from 1 to ${CACHE_ENTRY_PAGE.perPageMax}` })
  perPage?: number;
}

export class CacheEntryRowDto {
  @ApiProperty({ example: 'https://www.example.com/blog/launch' }) url!: string;
  @ApiProperty({ type: 'integer', example: 1 }) dimensionId!: number;
  @ApiProperty({ type: String, nullable: true, example: 'desktop', description: "The dimension's name; null for an entry of a dimension no longer configured" }) dimension!: string | null;
  @ApiProperty({ enum: ['render', 'bypass'] }) kind!: 'render' | 'bypass';
  @ApiProperty({ enum: ['fresh', 'stale'] }) status!: 'fresh' | 'stale';
  @ApiProperty({ type: 'integer', example: 200 }) statusCode!: number;
  @ApiProperty({ format: 'date-time' }) renderedAt!: string;
  @ApiProperty({ format: 'date-time' }) expiresAt!: string;
  @ApiProperty({ type: 'integer' }) bytes!: number;
  @ApiProperty({ type: 'integer', description: 'Render (or origin fetch) time, ms' }) renderMs!: number;
}

export class CacheEntryPageMetaDto {
  @ApiProperty({ type: 'integer' }) page!: number;
  @ApiProperty({ type: 'integer' }) perPage!: number;
  @ApiProperty({ type: 'integer', description: 'Entries selected' }) total!: number;
  @ApiProperty({ type: 'integer' }) totalPages!: number;
}

export class CacheEntryListingDto {
  @ApiProperty({ type: [CacheEntryRowDto], description: 'By URL, then dimension id' }) data!: CacheEntryRowDto[];
  @ApiProperty({ type: CacheEntryPageMetaDto }) meta!: CacheEntryPageMetaDto;
}
