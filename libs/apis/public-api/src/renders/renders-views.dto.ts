import { ApiProperty } from '@nestjs/swagger';
import { INTERVALS } from '@bpc/explorer';
import { InsightsWindowDto } from '../insights/insights-views.dto';

// Answer schemas, for the OpenAPI document and the clients typed from it.

export class RendersPointDto {
  @ApiProperty({ description: 'Bucket start, ISO 8601 UTC', example: '2026-11-26T00:00:00.000Z' }) t!: string;
  @ApiProperty({ type: 'integer', description: 'Renders and origin fetches that ended in the bucket' }) renders!: number;
  @ApiProperty({ type: 'integer', description: 'Outcome `stored`' }) stored!: number;
  @ApiProperty({ type: 'integer', description: 'Outcomes `kept_*`: the old entry was kept' }) kept!: number;
  @ApiProperty({ type: 'integer', description: 'Outcomes `retry_scheduled`, `gave_up`, `failed`' }) failed!: number;
  @ApiProperty({ type: 'integer', nullable: true, description: 'Median render time, ms (exact); null for an empty bucket' }) renderMsP50!: number | null;
  @ApiProperty({ type: 'integer', nullable: true, description: '95th percentile render time, ms (exact); null for an empty bucket' }) renderMsP95!: number | null;
}

export class RendersTimeseriesMetaDto {
  @ApiProperty({ example: '7d' }) period!: string;
  @ApiProperty({ type: InsightsWindowDto }) window!: InsightsWindowDto;
  @ApiProperty({ enum: INTERVALS }) interval!: string;
}

export class RendersTimeseriesAnswerDto {
  @ApiProperty({ type: RendersTimeseriesMetaDto }) meta!: RendersTimeseriesMetaDto;
  @ApiProperty({ type: [RendersPointDto], description: 'Every bucket of the window, oldest first' }) points!: RendersPointDto[];
}
