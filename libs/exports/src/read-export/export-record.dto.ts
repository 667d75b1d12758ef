import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

// The export record of the specification, one class per status, for the
// OpenAPI document only: `ExportRecordView` is what the code answers.

export class RunningExportDto {
  @ApiProperty({ enum: ['running'] }) status!: 'running';
  @ApiProperty({ type: 'integer', example: 7 }) exportId!: number;
  @ApiProperty({ description: 'Poll the status endpoint or send the same export call again' }) message!: string;
}

export class ExportWindowDto {
  @ApiProperty({ format: 'date', example: '2026-11-01', description: 'First day of the rows' }) start!: string;
  @ApiProperty({ format: 'date', example: '2026-11-30', description: 'Last day of the rows' }) end!: string;
}

export class CompletedExportDto {
  @ApiProperty({ enum: ['completed'] }) status!: 'completed';
  @ApiProperty({ type: 'integer', example: 7 }) exportId!: number;
  @ApiProperty({ type: 'integer', description: 'Rows the file holds; equal to maxRows, the file may be truncated' }) rowCount!: number;
  @ApiProperty({ type: 'integer' }) sizeBytes!: number;
  @ApiProperty({ type: [String], example: ['page', 'event_date_time'] }) columns!: string[];
  @ApiProperty({ type: 'integer', description: 'Row ceiling applied' }) maxRows!: number;
  @ApiProperty({ example: 'bots-november.csv' }) filename!: string;
  @ApiProperty({ type: ExportWindowDto }) window!: ExportWindowDto;
  @ApiProperty({
    format: 'uri',
    description: 'Signed link to `GET /exports/download/{exportId}?expires&sig`; needs no token; a fresh one is minted on every read',
  })
  downloadUrl!: string;
  @ApiProperty({ format: 'date-time', example: '2026-12-01T10:00:00+00:00', description: 'When the link expires' }) expiresAt!: string;
}

export class FailedExportDto {
  @ApiProperty({ enum: ['failed'] }) status!: 'failed';
  @ApiProperty({ type: 'integer', example: 7 }) exportId!: number;
  @ApiProperty({ example: 'INTERRUPTED', description: 'Reason code' }) error!: string;
  @ApiProperty() errorMessage!: string;
}

export const EXPORT_RECORD_MODELS = [RunningExportDto, CompletedExportDto, FailedExportDto] as const;

/** An export record: running, completed or failed, told apart by `status`. */
export const EXPORT_RECORD_SCHEMA: SchemaObject = {
  oneOf: EXPORT_RECORD_MODELS.map((model) => ({ $ref: getSchemaPath(model) })),
  discriminator: {
    propertyName: 'status',
    mapping: { running: getSchemaPath(RunningExportDto), completed: getSchemaPath(CompletedExportDto), failed: getSchemaPath(FailedExportDto) },
  },
};
