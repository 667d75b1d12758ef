import { Map as PersistentMap } from 'immutable';
import { assertNever } from '@bpc/domain';
import { EXPORT_COMPLETED, EXPORT_EXPIRED, EXPORT_FAILED, EXPORT_STARTED, ExportEvent, type ExportOrigin, type ExportStartedPayload } from '@bpc/events';

export type ExportStatus = 'running' | 'completed' | 'failed';

/** One export as the log tells it. */
export interface ExportState extends ExportStartedPayload {
  /** Always set here: a start recorded before the field existed came through the API. */
  readonly startedFrom: ExportOrigin;
  readonly createdAt: string;
  readonly status: ExportStatus;
  readonly finishedAt?: string;
  readonly rowCount?: number;
  readonly sizeBytes?: number;
  readonly error?: string;
  readonly errorMessage?: string;
}

/**
 * All exports of the service: by id, plus the slot each account's running
 * export holds. Persistent maps (`immutable`): each event makes a new state
 * sharing all but the changed path with the old one, so a replay does not
 * copy the state per event.
 */
export interface ExportsState {
  readonly byId: PersistentMap<number, ExportState>;
  /** accountId → exportId of the running export (the account's one slot). */
  readonly slots: PersistentMap<string, number>;
  readonly lastId: number;
}

export const emptyExportsState = (): ExportsState => ({ byId: PersistentMap(), slots: PersistentMap(), lastId: 0 });

/** The slot map without the account's slot when `exportId` holds it. */
function freeSlot(slots: ExportsState['slots'], accountId: string, exportId: number): ExportsState['slots'] {
  return slots.get(accountId) === exportId ? slots.delete(accountId) : slots;
}

/** Pure fold of the export events (the given state is left as it was); replaying the log rebuilds every record and slot. */
export function evolveExports(state: ExportsState, event: ExportEvent): ExportsState {
  switch (event.type) {
    case EXPORT_STARTED: {
      const p = event.payload;
      // A redelivered start (the log delivers at least once) must not reopen a finished export.
      if (state.byId.has(p.exportId)) return state;
      return {
        byId: state.byId.set(p.exportId, { ...p, columns: [...p.columns], startedFrom: p.startedFrom ?? 'api', createdAt: event.occurredAt, status: 'running' }),
        slots: state.slots.set(p.accountId, p.exportId),
        lastId: Math.max(state.lastId, p.exportId),
      };
    }
    case EXPORT_COMPLETED:
    case EXPORT_FAILED: {
      const { exportId, accountId } = event.payload;
      const slots = freeSlot(state.slots, accountId, exportId);
      const record = state.byId.get(exportId);
      // An outcome never reopens a finished record (nor adds one the log no longer holds).
      if (record?.status !== 'running') return { ...state, slots };
      const finished: ExportState =
        event.type === EXPORT_COMPLETED
          ? { ...record, status: 'completed', rowCount: event.payload.rowCount, sizeBytes: event.payload.sizeBytes, finishedAt: event.occurredAt }
          : { ...record, status: 'failed', error: event.payload.error, errorMessage: event.payload.errorMessage, finishedAt: event.occurredAt };
      return { ...state, byId: state.byId.set(exportId, finished), slots };
    }
    case EXPORT_EXPIRED:
      return { ...state, byId: state.byId.delete(event.payload.exportId), slots: freeSlot(state.slots, event.payload.accountId, event.payload.exportId) };
    default:
      return assertNever(event);
  }
}
