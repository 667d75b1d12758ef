import { Type } from 'class-transformer';
import { Allow, ArrayMaxSize, IsArray, IsDefined, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateNested } from 'class-validator';
import { MAX_FILENAME } from '../domain/export-question';

export class ExportFilterDto {
  @IsDefined({ message: 'field is required' }) @IsString({ message: 'field must be a string' }) @MaxLength(100) field!: string;
  @IsOptional() @IsString({ message: 'op must be a string' }) @MaxLength(50) op?: string;
  /** Type depends on the filter: checked by the catalog rules. */
  @Allow() val?: unknown;
  @Allow() val2?: unknown;
}

/** Body of POST …/data-explorer/{explorerKey}/export: the query body without page/perPage, plus filename, maxRows, waitSeconds. */
export class StartExportDto {
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
  @Type(() => ExportFilterDto)
  filters?: ExportFilterDto[];
  @IsOptional() @IsString({ message: 'period must be a string' }) @MaxLength(100) period?: string;
  @IsOptional() @IsString({ message: 'compPeriod must be a string' }) @MaxLength(100) compPeriod?: string;
  @IsOptional() @IsString({ message: 'compCategory must be a string' }) @MaxLength(50) compCategory?: string;
  @IsOptional() @IsString({ message: 'sort must be a string' }) @MaxLength(100) sort?: string;
  @IsOptional() @IsString({ message: 'sortDir must be "asc" or "desc"' }) @MaxLength(10) sortDir?: string;
  @IsOptional() @IsString({ message: 'filename must be a string' }) @MaxLength(MAX_FILENAME, { message: `filename holds at most ${MAX_FILENAME} characters` }) filename?: string;
  /** Checked against the account's exportRowCap by the handler (refused above it, never clamped). */
  @IsOptional() @IsInt({ message: 'maxRows must be an integer' }) @Min(1, { message: 'maxRows must be 1 or more' }) maxRows?: number;
  @IsOptional() @IsInt({ message: 'waitSeconds must be an integer from 0 to 30' }) @Min(0, { message: 'waitSeconds must be an integer from 0 to 30' }) @Max(30, { message: 'waitSeconds must be an integer from 0 to 30' }) waitSeconds?: number;
}
