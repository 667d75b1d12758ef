import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsArray, IsDefined, IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested, ArrayMaxSize } from 'class-validator';

/** One entry of `filters`: `field`, optional `op`, `val` / `val2` as the operator needs (checked against the catalog). */
export class QueryFilterDto {
  @ApiProperty({ description: 'Filter field from discovery', example: 'url' })
  @IsDefined({ message: 'field is required' }) @IsString({ message: 'field must be a string' }) @MaxLength(100) field!: string;
  @ApiPropertyOptional({ description: 'Operator from discovery', example: 'contains' })
  @IsOptional() @IsString({ message: 'op must be a string' }) @MaxLength(50) op?: string;
  /** Type depends on the filter (string, number, option): checked by the catalog rules. */
  @ApiPropertyOptional({ description: 'Value the operator needs (type depends on the filter)' })
  @Allow() val?: unknown;
  @ApiPropertyOptional({ description: 'Upper bound of a range (`between`)' })
  @Allow() val2?: unknown;
}

/** Body of POST …/data-explorer/{explorerKey}/query, field by field as in the specification. */
export class QueryExplorerDto {
  @ApiPropertyOptional({ description: "Mode; defaults to the explorer's default mode", example: 'requests' })
  @IsOptional() @IsString({ message: 'mode must be a string' }) @MaxLength(50) mode?: string;

  @ApiPropertyOptional({ type: [String], description: 'Column keys from discovery; omit for the defaults (an empty array is rejected)', example: ['page', 'event_date_time'] })
  @IsOptional()
  @IsArray({ message: 'columns must be an array of column keys' })
  @ArrayMaxSize(100, { message: 'columns holds at most 100 keys' })
  @IsString({ each: true, message: 'each column must be a string' })
  columns?: string[];

  @ApiPropertyOptional({ type: [QueryFilterDto] })
  @IsOptional()
  @IsArray({ message: 'filters must be an array of {field, op, val, val2}' })
  @ArrayMaxSize(50, { message: 'filters holds at most 50 entries' })
  @ValidateNested({ each: true })
  @Type(() => QueryFilterDto)
  filters?: QueryFilterDto[];

  @ApiPropertyOptional({ description: 'Preset (`24h`, `7d` …) or `YYYY-MM-DD,YYYY-MM-DD`, at most 365 days', example: '30d' })
  @IsOptional() @IsString({ message: 'period must be a string' }) @MaxLength(100) period?: string;
  @ApiPropertyOptional({ description: 'Comparison window (date-only); where the mode has one' })
  @IsOptional() @IsString({ message: 'compPeriod must be a string' }) @MaxLength(100) compPeriod?: string;
  @ApiPropertyOptional({ enum: ['new', 'returning', 'lost'], description: '`comparison` mode of `events` only' })
  @IsOptional() @IsString({ message: 'compCategory must be a string' }) @MaxLength(50) compCategory?: string;
  @ApiPropertyOptional({ description: 'A sortable column key' })
  @IsOptional() @IsString({ message: 'sort must be a string' }) @MaxLength(100) sort?: string;
  @ApiPropertyOptional({ enum: ['asc', 'desc'] })
  @IsOptional() @IsString({ message: 'sortDir must be "asc" or "desc"' }) @MaxLength(10) sortDir?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  @IsOptional() @IsInt({ message: 'page must be an integer' }) @Min(1, { message: 'page must be 1 or more' }) page?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 500, default: 100 })
  @IsOptional() @IsInt({ message: 'perPage must be an integer' }) @Min(1, { message: 'perPage must be 1 or more' }) perPage?: number;
}
