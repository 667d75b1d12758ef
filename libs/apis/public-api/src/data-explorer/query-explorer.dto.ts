import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { Allow, IsArray, IsDefined, IsInt, IsString, MaxLength, Min, ValidateNested, ArrayMaxSize } from 'class-validator';
import { Omittable } from '@bpc/platform';

// Every field may be left out, but `null` is refused like any wrong value
// (Omittable). Decorators run bottom-up and only the first failure is
// reported: the type check is the lowest, so "2" for `page` reads "page must
// be an integer", not "page must be 1 or more".
// Defaults are told in descriptions, not as `default`: openapi-typescript
// types a body field with a `default` as required, and a typed client would
// have to send every one.

/** One entry of `filters`: `field`, optional `op`, `val` / `val2` as the operator needs (checked against the catalog). */
export class QueryFilterDto {
  @ApiProperty({ description: 'Filter field from discovery', example: 'url' })
  @IsDefined({ message: 'field is required' }) @MaxLength(100) @IsString({ message: 'field must be a string' }) field!: string;
  @ApiPropertyOptional({ description: 'Operator from discovery', example: 'contains' })
  @Omittable() @MaxLength(50) @IsString({ message: 'op must be a string' }) op?: string;
  /** Type depends on the filter (text, number, option): checked by the catalog rules. */
  @ApiPropertyOptional({ oneOf: [{ type: 'string' }, { type: 'number' }], description: 'Value the operator needs: a string for text and option filters, a number for numeric ones (discovery gives each filter\'s type)', example: '/pricing' })
  @Allow() val?: string | number;
  @ApiPropertyOptional({ type: 'number', description: 'Upper bound of a range (`between`)' })
  @Allow() val2?: number;
}

/** `filters` of an explorer body (queries, insights, render history): at most 50 entries, each checked by the catalog that names `filters[i]`. */
export const ExplorerFilters = (description?: string) =>
  // applyDecorators applies in the order given, stacked decorators bottom-up: listed here from the bottom, so the checks keep their order.
  applyDecorators(
    Type(() => QueryFilterDto),
    IsArray({ message: 'filters must be an array of {field, op, val, val2}' }),
    ArrayMaxSize(50, { message: 'filters holds at most 50 entries' }),
    ValidateNested({ each: true }),
    Omittable(),
    ApiPropertyOptional(description === undefined ? { type: [QueryFilterDto] } : { type: [QueryFilterDto], description }),
  );

/** Body of POST …/data-explorer/{explorerKey}/query, field by field as in the specification. */
export class QueryExplorerDto {
  @ApiPropertyOptional({ description: "Mode; defaults to the explorer's default mode", example: 'requests' })
  @Omittable() @MaxLength(50) @IsString({ message: 'mode must be a string' }) mode?: string;

  @ApiPropertyOptional({ type: [String], description: 'Column keys from discovery; omit for the defaults (an empty array is rejected)', example: ['page', 'event_date_time'] })
  @Omittable()
  // Entries are checked one by one by the query rules, which name `columns[i]`.
  @ArrayMaxSize(100, { message: 'columns holds at most 100 keys' })
  @IsArray({ message: 'columns must be an array of column keys' })
  columns?: string[];

  @ExplorerFilters() filters?: QueryFilterDto[];

  @ApiPropertyOptional({ description: 'Preset (`24h`, `7d` …) or `YYYY-MM-DD,YYYY-MM-DD`, at most 365 days', example: '30d' })
  @Omittable() @MaxLength(100) @IsString({ message: 'period must be a string' }) period?: string;
  @ApiPropertyOptional({ description: 'Comparison window (date-only); where the mode has one' })
  @Omittable() @MaxLength(100) @IsString({ message: 'compPeriod must be a string' }) compPeriod?: string;
  @ApiPropertyOptional({ enum: ['new', 'returning', 'lost'], description: '`comparison` mode of `events` only' })
  @Omittable() @MaxLength(50) @IsString({ message: 'compCategory must be a string' }) compCategory?: string;
  @ApiPropertyOptional({ description: 'A sortable column key' })
  @Omittable() @MaxLength(100) @IsString({ message: 'sort must be a string' }) sort?: string;
  @ApiPropertyOptional({ enum: ['asc', 'desc'] })
  @Omittable() @MaxLength(10, { message: 'sortDir must be "asc" or "desc"' }) @IsString({ message: 'sortDir must be "asc" or "desc"' }) sortDir?: string;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: '1-based page; default 1; a page past the last is refused' })
  @Omittable() @Min(1, { message: 'page must be 1 or more' }) @IsInt({ message: 'page must be an integer' }) page?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 500, description: 'Rows per page; default 100 (discovery gives the account\'s perPageMax)' })
  @Omittable() @Min(1, { message: 'perPage must be 1 or more' }) @IsInt({ message: 'perPage must be an integer' }) perPage?: number;
}
