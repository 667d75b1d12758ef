import { OmitType } from '@nestjs/swagger';
import { RendersColumns, RendersMode, RendersPeriod } from '@bpc/public-api';
import { StartExportDto } from '../start-export/start-export.dto';

/** Body of POST …/renders/export: a render-history query body without page/perPage, plus filename, maxRows, waitSeconds (as an explorer export). */
export class ExportRendersDto extends OmitType(StartExportDto, ['mode', 'columns', 'period', 'compPeriod', 'compCategory'] as const) {
  @RendersMode() mode?: string;
  @RendersColumns() columns?: string[];
  @RendersPeriod() period?: string;
}
