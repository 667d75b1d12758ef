import type { StoredObject } from '@bpc/object-store';
import { exportIdOfObjectKey } from '../domain/export-object-key';
import type { ExportState } from '../domain/export-record';

/**
 * What a sweep knows when it judges a leftover. Following the log (cluster
 * mode), a record may not have arrived yet from the replica writing the
 * export: a file of an unknown export is then left alone for `graceMs`
 * after its last write.
 */
export interface LeftoverContext {
  readonly follows: boolean;
  /** Epoch ms of the wall clock, as the files' and objects' modification times. */
  readonly now: number;
  readonly graceMs: number;
}

/**
 * Whether an object under `exports/` is a leftover: the file of a failed
 * export (a crash or a lost lease between its write and its record), of an
 * export no record names any more (expired, its removal cut off), or any
 * other object there. Completed exports' files wait for the retention sweep;
 * running ones are being written.
 */
export function isLeftoverObject(object: StoredObject, recordOf: (exportId: number) => ExportState | undefined, context: LeftoverContext): boolean {
  const exportId = exportIdOfObjectKey(object.key);
  const record = exportId === undefined ? undefined : recordOf(exportId);
  if (record) return record.status === 'failed';
  return !context.follows || context.now - object.modifiedAt >= context.graceMs;
}

/**
 * Whether a staging file (the engine's output before its upload) is a
 * leftover. Standalone, only this process writes them, and it runs no export
 * while it recovers; following the log (a data directory replicas may
 * share), a running export's file or a young one of an unknown export is
 * another replica's write in progress.
 */
export function isLeftoverStagingFile(record: ExportState | undefined, modifiedAt: number, context: LeftoverContext): boolean {
  if (!context.follows) return true;
  if (record?.status === 'running') return false;
  return record !== undefined || context.now - modifiedAt >= context.graceMs;
}
