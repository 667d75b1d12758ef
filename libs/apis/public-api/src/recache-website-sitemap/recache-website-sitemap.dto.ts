import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsString, MaxLength, MinLength } from 'class-validator';
import { REQUESTABLE_PRIORITIES, RequestablePriority } from '@bpc/domain';
import { Omittable } from '@bpc/platform';

/** Body of POST /api/websites/{website}/cache/recache-sitemap (docs/sitemaps.md). */
export class RecacheWebsiteSitemapDto {
  @ApiProperty({
    description: "Absolute http(s) URL of a sitemap or sitemap index (gzip allowed) on one of the website's hostnames. It is fetched from the host's configured origin when there is one, under the renderer's network rules.",
    example: 'https://www.example.com/sitemap.xml',
    maxLength: 8192,
  })
  @IsDefined({ message: 'sitemapUrl is required' })
  @IsString({ message: 'sitemapUrl must be a URL' })
  @MinLength(1, { message: 'sitemapUrl must be a URL' })
  @MaxLength(8192, { message: 'sitemapUrl must be at most 8192 characters' })
  sitemapUrl!: string;

  @ApiPropertyOptional({ description: '`YYYY-MM-DD` (midnight UTC) or an ISO 8601 timestamp with `Z` or an offset: only entries whose `lastmod` is later are recached (entries without a readable `lastmod` are)', example: '2026-11-01' })
  @Omittable()
  @IsString({ message: 'lastmodAfter must be YYYY-MM-DD or an ISO 8601 timestamp with Z or an offset' })
  @MaxLength(40, { message: 'lastmodAfter must be YYYY-MM-DD or an ISO 8601 timestamp with Z or an offset' })
  lastmodAfter?: string;

  @ApiPropertyOptional({ enum: REQUESTABLE_PRIORITIES, description: 'Default `normal`; `high` re-renders ahead of the queue' })
  @Omittable() @IsIn(REQUESTABLE_PRIORITIES, { message: 'priority must be "high" or "normal"' }) priority?: RequestablePriority;
}

export class SitemapSkippedDto {
  @ApiProperty({ description: "URLs on a hostname that is not one of the website's", example: 0 }) offHost!: number;
  @ApiProperty({ description: 'Entries without a `<loc>`, or whose loc is not an absolute http(s) URL', example: 0 }) invalid!: number;
  @ApiProperty({ description: 'Entries past 50,000 in one file or past the per-call cap', example: 0 }) overCap!: number;
  @ApiProperty({ description: 'Entries whose `lastmod` is not after `lastmodAfter`', example: 0 }) notModified!: number;
  @ApiProperty({ description: 'URLs listed again (after normalisation)', example: 0 }) duplicate!: number;
}

export class RecacheWebsiteSitemapResponseDto {
  @ApiProperty({ type: String, nullable: true, description: 'The receipt of the recache (all chunks); null when no URL was taken and nothing was queued', example: '0b7e6c2a-7f0e-4f57-9d57-1f6b0a3c2d11' })
  receiptId!: string | null;
  @ApiProperty({ description: 'Files read: the sitemap, plus the sitemaps of an index', example: 1 }) sitemapsRead!: number;
  @ApiProperty({ description: '`<url>` entries read over every file', example: 120 }) urlsFound!: number;
  @ApiProperty({ description: 'Distinct URLs taken: urlsFound minus every skipped count', example: 118 }) urlsAccepted!: number;
  @ApiProperty({ description: 'Render jobs created or kept in the queue: URLs × cache dimensions (URLs a rule ignores add none)', example: 236 }) entriesEnqueued!: number;
  @ApiProperty({ type: SitemapSkippedDto }) skipped!: SitemapSkippedDto;
}
