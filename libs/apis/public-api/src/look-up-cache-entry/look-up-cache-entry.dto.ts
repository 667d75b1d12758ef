import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class CacheEntryDimensionDto {
  @ApiProperty({ type: 'integer', example: 1 }) dimensionId!: number;
  @ApiProperty({ example: 'desktop', description: "The dimension's configured name" }) dimension!: string;
  @ApiProperty({ description: 'Whether an entry is stored for this URL and dimension; the fields up to `renderMs` are present only when it is' }) cached!: boolean;
  @ApiPropertyOptional({ enum: ['render', 'bypass'], description: '`render`: rendered by the browser; `bypass`: the origin\'s answer as it came' }) kind?: 'render' | 'bypass';
  @ApiPropertyOptional({ enum: ['fresh', 'stale'], description: '`stale` once `expiresAt` has passed (still served; a recache is due)' }) status?: 'fresh' | 'stale';
  @ApiPropertyOptional({ type: 'integer', example: 200, description: 'The stored HTTP status served to bots' }) statusCode?: number;
  @ApiPropertyOptional({ format: 'date-time', example: '2026-12-01T10:00:00.000Z' }) renderedAt?: string;
  @ApiPropertyOptional({ format: 'date-time', example: '2026-12-02T10:00:00.000Z' }) expiresAt?: string;
  @ApiPropertyOptional({ type: 'integer', example: 48213, description: 'Stored body size' }) bytes?: number;
  @ApiPropertyOptional({ type: 'integer', example: 1840, description: 'How long the render (or the origin fetch of a bypass) took, ms' }) renderMs?: number;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'Last bot request of this website served from this entry (hit or stale) since it was rendered; null when none' })
  lastServedAt!: string | null;
  @ApiProperty({ type: 'integer', example: 12, description: 'Bot requests of this website served from this entry (hit or stale) since it was rendered; 0 when not cached' }) hits!: number;
}

export class CacheEntryLookupDto {
  @ApiProperty({ example: 'https://www.example.com/pricing', description: 'The URL as cache keys spell it (normalised)' }) url!: string;
  @ApiProperty({ type: [CacheEntryDimensionDto], description: "One item per configured dimension of the website's host, in configuration order" }) entries!: CacheEntryDimensionDto[];
}
