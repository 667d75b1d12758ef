import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsInt, IsString, Max, MaxLength, Min } from 'class-validator';
import { Omittable } from '@bpc/platform';
import { QueryExplorerDto } from '@bpc/public-api';
import { MAX_FILENAME } from '../domain/export-question';

/**
 * Body of POST …/data-explorer/{explorerKey}/export: the query body (its
 * fields and their checks, inherited) without page/perPage, plus filename,
 * maxRows, waitSeconds, checked the same way (`null` refused, the type first:
 * decorators run bottom-up).
 */
export class StartExportDto extends OmitType(QueryExplorerDto, ['page', 'perPage'] as const) {
  @ApiPropertyOptional({ description: `Base name, up to ${MAX_FILENAME} characters; .csv is appended` })
  @Omittable() @MaxLength(MAX_FILENAME, { message: `filename holds at most ${MAX_FILENAME} characters` }) @IsString({ message: 'filename must be a string' }) filename?: string;
  /** Checked against the account's exportRowCap by the handler (refused above it, never clamped). */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, description: "Rows at most; defaults to the account's export row cap, refused above it" })
  @Omittable() @Min(1, { message: 'maxRows must be 1 or more' }) @IsInt({ message: 'maxRows must be an integer' }) maxRows?: number;
  @ApiPropertyOptional({ type: 'integer', minimum: 0, maximum: 30, description: 'Seconds to wait for the export to finish; default 20' })
  @Omittable() @Max(30, { message: 'waitSeconds must be an integer from 0 to 30' }) @Min(0, { message: 'waitSeconds must be an integer from 0 to 30' }) @IsInt({ message: 'waitSeconds must be an integer from 0 to 30' }) waitSeconds?: number;
}
