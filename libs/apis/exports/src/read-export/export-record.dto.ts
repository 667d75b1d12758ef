import { ApiProperty, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { EXPORT_ORIGINS, type ExportOrigin } from '@bpc/events';
import { EXPORT_LIST_LIMIT } from '../list-exports/user-exports';

// The export record of the specification, one class per status, for the
// OpenAPI document only: `ExportRecordView` is what the code answers.

/** Every status carries where and when the export was started. */
const STARTED_FROM = { enum: EXPORT_ORIGINS, description: 'Where it was started: `api` (bearer token), `dashboard` (session cookie) or `agent` (agent connector)' };
const CREATED_AT = { format: 'date-time', example: '2026-12-01T09:00:00.000+00:00', description: 'When the export was created' };

export class RunningExportDto {
  @ApiProperty({ enum: ['running'] }) status!: 'running';
  @ApiProperty({ type: 'integer', example: 7 }) exportId!: number;
  @ApiProperty({ description: 'Poll the status endpoint or send the same export call again' }) message!: string;
  @ApiProperty(STARTED_FROM) startedFrom!: ExportOrigin;
  @ApiProperty(CREATED_AT) createdAt!: string;
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
  @ApiProperty(STARTED_FROM) startedFrom!: ExportOrigin;
  @ApiProperty(CREATED_AT) createdAt!: string;
}

export class FailedExportDto {
  @ApiProperty({ enum: ['failed'] }) status!: 'failed';
  @ApiProperty({ type: 'integer', example: 7 }) exportId!: number;
  @ApiProperty({ example: 'INTERRUPTED', description: 'Reason code' }) error!: string;
  @ApiProperty() errorMessage!: string;
  @ApiProperty(STARTED_FROM) startedFrom!: ExportOrigin;
  @ApiProperty(CREATED_AT) createdAt!: string;
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

/** The caller's exports on the website. */
export const EXPORT_LIST_SCHEMA: SchemaObject = {
  type: 'object',
  required: ['exports'],
  properties: {
    exports: {
      type: 'array',
      items: EXPORT_RECORD_SCHEMA,
      description: `Export records of the caller's user on this website, newest first, at most ${EXPORT_LIST_LIMIT}; completed ones with a freshly signed downloadUrl`,
    },
  },
};
