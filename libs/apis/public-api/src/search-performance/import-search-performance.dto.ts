import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsDefined, IsIn, IsOptional, IsString, MaxLength } from 'class-validator';
import { IMPORT_FORMATS, ImportFormat, MAX_IMPORT_ROWS } from '@bpc/explorer';

/** Body of POST /api/websites/{website}/search-performance/import. */
export class ImportSearchPerformanceDto {
  @ApiProperty({ enum: IMPORT_FORMATS })
  @IsDefined({ message: 'format is required' }) @IsIn(IMPORT_FORMATS, { message: `format must be one of ${IMPORT_FORMATS.join(', ')}` }) format!: ImportFormat;
  /** CSV text of a Pages or Queries table export. */
  @ApiPropertyOptional({ description: 'CSV text (CSV formats)' })
  @IsOptional() @IsString({ message: 'content must be the CSV text' }) @MaxLength(15_000_000) content?: string;
  /** The one day a CSV export covers, YYYY-MM-DD. */
  @ApiPropertyOptional({ description: 'YYYY-MM-DD, required for CSV formats', example: '2026-11-01' })
  @IsOptional() @IsString({ message: 'date must be YYYY-MM-DD' }) @MaxLength(10) date?: string;
  /** `rows` of a searchanalytics.query response. */
  @ApiPropertyOptional({ type: 'array', items: { type: 'object' }, description: '`rows` of a searchanalytics.query response (JSON format)' })
  @IsOptional() @IsArray({ message: 'rows must be an array' }) @ArrayMaxSize(MAX_IMPORT_ROWS) rows?: unknown[];
  /** The request's dimensions, in key order (default date, page, query). */
  @ApiPropertyOptional({ type: [String], description: 'Dimensions in key order, default date, page, query' })
  @IsOptional() @IsArray() @ArrayMaxSize(3) @IsString({ each: true }) dimensions?: string[];
}

/** The admin (CLI) form names the website in the body. */
export class AdminImportSearchPerformanceDto extends ImportSearchPerformanceDto {
  @IsDefined({ message: 'website is required' }) @IsString() @MaxLength(63) website!: string;
}
