import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsString, MaxLength } from 'class-validator';
import { INTERVALS, RENDER_MODE_KEYS } from '@bpc/explorer';
import { Omittable } from '@bpc/platform';
import { ExplorerFilters, QueryExplorerDto, QueryFilterDto } from '../data-explorer/query-explorer.dto';

// Types and sizes are checked here (the lowest decorator first, as in the
// explorer's query DTO); values (mode, columns, filters, period, sort,
// interval) by render history's catalog, which names the field it refuses.

const PERIOD_DESCRIPTION = 'A preset (`24h`, `7d`, `14d`, `28d`, `30d`, `90d`) or `YYYY-MM-DD,YYYY-MM-DD` (a time of day `YYYY-MM-DDTHH:mm` allowed), at most 365 days; default `7d`';

/** The render-history fields of a query body (also of its export body): mode, columns and period with their own keys and defaults. */
export const RendersMode = () =>
  applyDecorators(
    ApiPropertyOptional({ enum: RENDER_MODE_KEYS, description: '`renders` (default): one row per render or origin fetch; `reasons`: one row per outcome and reason', example: 'renders' }),
    Omittable(),
    MaxLength(50),
    IsString({ message: 'mode must be a string' }),
  );
export const RendersColumns = () =>
  applyDecorators(
    ApiPropertyOptional({
      type: [String],
      description: 'Column keys (GET …/renders lists them); omit for the defaults: `renders` page, rendered_at, outcome, reason, render_ms; `reasons` outcome, reason, renders, pages, avg_render_ms, last_rendered_at (an empty array is rejected)',
      example: ['page', 'rendered_at', 'outcome', 'reason'],
    }),
    Omittable(),
    ArrayMaxSize(100, { message: 'columns holds at most 100 keys' }),
    IsArray({ message: 'columns must be an array of column keys' }),
  );
export const RendersPeriod = () => applyDecorators(ApiPropertyOptional({ description: PERIOD_DESCRIPTION, example: '7d' }), Omittable(), MaxLength(100), IsString({ message: 'period must be a string' }));

/** Body of POST …/renders/query: an explorer query body without the comparison window. */
export class QueryRendersDto extends OmitType(QueryExplorerDto, ['mode', 'columns', 'period', 'compPeriod', 'compCategory'] as const) {
  @RendersMode() mode?: string;
  @RendersColumns() columns?: string[];
  @RendersPeriod() period?: string;
}

/** Body of POST …/renders/timeseries. */
export class RendersTimeseriesDto {
  @RendersPeriod() period?: string;

  @ExplorerFilters("Render history's filters (GET …/renders lists fields and operators)") filters?: QueryFilterDto[];

  @ApiPropertyOptional({ enum: INTERVALS, description: 'Bucket size; default `hour` when the window is at most 7 days, else `day`. `hour` over more than 31 days is refused' })
  @Omittable() @MaxLength(10) @IsString({ message: 'interval must be a string' }) interval?: string;
}
