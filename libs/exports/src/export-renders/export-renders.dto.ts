import { ApiPropertyOptional, OmitType } from '@nestjs/swagger';
import { IsString, MaxLength } from 'class-validator';
import { RENDER_MODE_KEYS } from '@bpc/explorer';
import { Omittable } from '@bpc/platform';
import { StartExportDto } from '../start-export/start-export.dto';

/** Body of POST …/renders/export: a render-history query body without page/perPage, plus filename, maxRows, waitSeconds (as an explorer export). */
export class ExportRendersDto extends OmitType(StartExportDto, ['mode', 'compPeriod', 'compCategory'] as const) {
  @ApiPropertyOptional({ enum: RENDER_MODE_KEYS, description: '`renders` (default): one row per render; `reasons`: one row per outcome and reason', example: 'renders' })
  @Omittable() @MaxLength(50) @IsString({ message: 'mode must be a string' }) mode?: string;
}
