import type { EventDefinition } from '../event-definition';
import type { EventEnvelope } from '../envelope';
import { payloadSchema } from '../json-schema';
import { TOPICS } from '../topics';

export const EXPORT_STARTED = 'ExportStarted';
export const EXPORT_COMPLETED = 'ExportCompleted';
export const EXPORT_FAILED = 'ExportFailed';
export const EXPORT_EXPIRED = 'ExportExpired';

/** Where an export was started: the public API with a bearer token, the dashboard (session cookie), or an agent connector. */
export const EXPORT_ORIGINS = ['api', 'dashboard', 'agent'] as const;
export type ExportOrigin = (typeof EXPORT_ORIGINS)[number];

/** What an export was asked, with the window frozen at creation. */
export interface ExportStartedPayload {
  readonly exportId: number;
  /** Random id of the file, bound into download signatures so a link never opens another file. */
  readonly fileId: string;
  readonly accountId: string;
  readonly websiteId: string;
  readonly userId: string;
  readonly explorerKey: string;
  /** SHA-256 of the canonical question (see libs/apis/exports export-question.ts). */
  readonly questionHash: string;
  readonly columns: readonly string[];
  readonly maxRows: number;
  readonly filename: string;
  readonly window: { readonly start: string; readonly end: string };
  /**
   * Added after v1 was first written, optional so the version stays 1: events
   * recorded before it have none and read as `api`. Not part of the question.
   */
  readonly startedFrom?: ExportOrigin;
}

/** An export took its account's slot. Keyed by account so one account's exports stay in order. */
export type ExportStarted = EventEnvelope<typeof EXPORT_STARTED, ExportStartedPayload>;
export type ExportCompleted = EventEnvelope<typeof EXPORT_COMPLETED, { readonly exportId: number; readonly accountId: string; readonly rowCount: number; readonly sizeBytes: number }>;
export type ExportFailed = EventEnvelope<typeof EXPORT_FAILED, { readonly exportId: number; readonly accountId: string; readonly error: string; readonly errorMessage: string }>;
/** The retention ended: the file is removed and the record forgotten. */
export type ExportExpired = EventEnvelope<typeof EXPORT_EXPIRED, { readonly exportId: number; readonly accountId: string }>;

export type ExportEvent = ExportStarted | ExportCompleted | ExportFailed | ExportExpired;

const exportId = { type: 'integer', description: 'export identifier' } as const;
const accountId = { type: 'string', description: 'account identifier (also the key)' } as const;

const exportStartedSchema = payloadSchema<ExportStartedPayload>()({
  type: 'object', additionalProperties: false,
  required: ['exportId', 'fileId', 'accountId', 'websiteId', 'userId', 'explorerKey', 'questionHash', 'columns', 'maxRows', 'filename', 'window'],
  properties: {
    exportId, accountId, fileId: { type: 'string' }, websiteId: { type: 'string' }, userId: { type: 'string' }, explorerKey: { type: 'string' },
    questionHash: { type: 'string', description: 'hex SHA-256 of the canonical question' },
    columns: { type: 'array', items: { type: 'string' } }, maxRows: { type: 'integer' }, filename: { type: 'string' },
    window: { type: 'object', additionalProperties: false, required: ['start', 'end'], properties: { start: { type: 'string', format: 'date-time' }, end: { type: 'string', format: 'date-time' } } },
    startedFrom: { enum: [...EXPORT_ORIGINS], description: 'where the export was started; absent in events recorded before the field existed (read as `api`)' },
  },
});
const exportCompletedSchema = payloadSchema<ExportCompleted['payload']>()({
  type: 'object', additionalProperties: false, required: ['exportId', 'accountId', 'rowCount', 'sizeBytes'], properties: { exportId, accountId, rowCount: { type: 'integer' }, sizeBytes: { type: 'integer' } },
});
const exportFailedSchema = payloadSchema<ExportFailed['payload']>()({
  type: 'object', additionalProperties: false, required: ['exportId', 'accountId', 'error', 'errorMessage'], properties: { exportId, accountId, error: { type: 'string' }, errorMessage: { type: 'string' } },
});
const exportExpiredSchema = payloadSchema<ExportExpired['payload']>()({ type: 'object', additionalProperties: false, required: ['exportId', 'accountId'], properties: { exportId, accountId } });

export const EXPORT_EVENT_CATALOG: Readonly<Record<ExportEvent['type'], EventDefinition>> = {
  [EXPORT_STARTED]: {
    type: EXPORT_STARTED, version: 1, topic: TOPICS.exports, key: 'account id', description: 'A CSV export was created and holds its account\'s export slot; its window is frozen.', payload: exportStartedSchema,
  },
  [EXPORT_COMPLETED]: {
    type: EXPORT_COMPLETED, version: 1, topic: TOPICS.exports, key: 'account id', description: 'The export file is written; the slot is free.', payload: exportCompletedSchema,
  },
  [EXPORT_FAILED]: {
    type: EXPORT_FAILED, version: 1, topic: TOPICS.exports, key: 'account id', description: 'The export failed (query, generation, or interrupted by a crash); the slot is free.', payload: exportFailedSchema,
  },
  [EXPORT_EXPIRED]: {
    type: EXPORT_EXPIRED, version: 1, topic: TOPICS.exports, key: 'account id', description: 'The retention of a finished export ended; its file is removed.', payload: exportExpiredSchema,
  },
};

export function asExportEvent(event: { type: string; version: number }): ExportEvent | undefined {
  const definition = (EXPORT_EVENT_CATALOG as Record<string, EventDefinition | undefined>)[event.type];
  return definition && definition.version === event.version ? (event as ExportEvent) : undefined;
}
