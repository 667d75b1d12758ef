import { assertNever } from '@bpc/domain';
import { EXPORT_COMPLETED, EXPORT_EXPIRED, EXPORT_FAILED, EXPORT_STARTED, ExportEvent, type ExportStartedPayload } from '@bpc/events';

export type ExportStatus = 'running' | 'completed' | 'failed';

/** One export as the log tells it. */
export interface ExportState extends ExportStartedPayload {
  readonly createdAt: string;
  status: ExportStatus;
  finishedAt?: string;
  rowCount?: number;
  sizeBytes?: number;
  error?: string;
  errorMessage?: string;
}

/** All exports of the service: by id, plus the slot each account's running export holds. */
export interface ExportsState {
  readonly byId: Map<number, ExportState>;
  /** accountId → exportId of the running export (the account's one slot). */
  readonly slots: Map<string, number>;
  lastId: number;
}

export const emptyExportsState = (): ExportsState => ({ byId: new Map(), slots: new Map(), lastId: 0 });

/** Pure fold of the export events; replaying the log rebuilds every record and slot. */
export function evolveExports(state: ExportsState, event: ExportEvent): void {
  switch (event.type) {
    case EXPORT_STARTED: {
      const p = event.payload;
      // A redelivered start (the log delivers at least once) must not reopen a finished export.
      if (state.byId.has(p.exportId)) return;
      state.byId.set(p.exportId, { ...p, columns: [...p.columns], createdAt: event.occurredAt, status: 'running' });
      state.slots.set(p.accountId, p.exportId);
      state.lastId = Math.max(state.lastId, p.exportId);
      return;
    }
    case EXPORT_COMPLETED:
    case EXPORT_FAILED: {
      const record = state.byId.get(event.payload.exportId);
      if (record && record.status === 'running') {
        if (event.type === EXPORT_COMPLETED) Object.assign(record, { status: 'completed', rowCount: event.payload.rowCount, sizeBytes: event.payload.sizeBytes, finishedAt: event.occurredAt });
        else Object.assign(record, { status: 'failed', error: event.payload.error, errorMessage: event.payload.errorMessage, finishedAt: event.occurredAt });
      }
      if (state.slots.get(event.payload.accountId) === event.payload.exportId) state.slots.delete(event.payload.accountId);
      return;
    }
    case EXPORT_EXPIRED:
      state.byId.delete(event.payload.exportId);
      if (state.slots.get(event.payload.accountId) === event.payload.exportId) state.slots.delete(event.payload.accountId);
      return;
    default:
      return assertNever(event);
  }
}
