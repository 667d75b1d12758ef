import { Type } from 'class-transformer';
import { Allow, IsArray, IsDefined, IsInt, IsOptional, IsString, MaxLength, Min, ValidateNested, ArrayMaxSize } from 'class-validator';

/** One entry of `filters`: `field`, optional `op`, `val` / `val2` as the operator needs (checked against the catalog). */
export class QueryFilterDto {
  @IsDefined({ message: 'field is required' }) @IsString({ message: 'field must be a string' }) @MaxLength(100) field!: string;
  @IsOptional() @IsString({ message: 'op must be a string' }) @MaxLength(50) op?: string;
  /** Type depends on the filter (string, number, option): checked by the catalog rules. */
  @Allow() val?: unknown;
  @Allow() val2?: unknown;
}

/** Body of POST …/data-explorer/{explorerKey}/query, field by field as in the specification. */
export class QueryExplorerDto {
  @IsOptional() @IsString({ message: 'mode must be a string' }) @MaxLength(50) mode?: string;

  @IsOptional()
  @IsArray({ message: 'columns must be an array of column keys' })
  @ArrayMaxSize(100, { message: 'columns holds at most 100 keys' })
  @IsString({ each: true, message: 'each column must be a string' })
  columns?: string[];

  @IsOptional()
  @IsArray({ message: 'filters must be an array of {field, op, val, val2}' })
  @ArrayMaxSize(50, { message: 'filters holds at most 50 entries' })
  @ValidateNested({ each: true })
  @Type(() => QueryFilterDto)
  filters?: QueryFilterDto[];

  @IsOptional() @IsString({ message: 'period must be a string' }) @MaxLength(100) period?: string;
  @IsOptional() @IsString({ message: 'compPeriod must be a string' }) @MaxLength(100) compPeriod?: string;
  @IsOptional() @IsString({ message: 'compCategory must be a string' }) @MaxLength(50) compCategory?: string;
  @IsOptional() @IsString({ message: 'sort must be a string' }) @MaxLength(100) sort?: string;
  @IsOptional() @IsString({ message: 'sortDir must be "asc" or "desc"' }) @MaxLength(10) sortDir?: string;
  @IsOptional() @IsInt({ message: 'page must be an integer' }) @Min(1, { message: 'page must be 1 or more' }) page?: number;
  @IsOptional() @IsInt({ message: 'perPage must be an integer' }) @Min(1, { message: 'perPage must be 1 or more' }) perPage?: number;
}
