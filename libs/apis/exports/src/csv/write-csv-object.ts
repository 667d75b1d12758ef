import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ExplorerStore, QueryParams } from '@bpc/explorer-store';
import type { ObjectKey, ObjectStore } from '@bpc/object-store';

export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

/**
 * Has the store write the export's CSV (`CSVWithNames`) to the local
 * `stagingPath` (chDB writes it itself, `INTO OUTFILE`: no byte of it passes
 * through JavaScript memory, and it counts the rows), then publishes that
 * file under `key` (`uploadFile`: moved into place by the file adapter,
 * uploaded streamed by S3, memory bounded by its part size). `beforeCommit` (which throws to stop, e.g. when the slot lease
 * is lost) runs before the upload and again before the object is published:
 * either way nothing is published. The staging file is removed in every
 * case; a failed or stopped upload leaves no object (the port's guarantee).
 */
export async function writeCsvObject(
  store: ExplorerStore,
  objects: ObjectStore,
  query: { readonly sql: string; readonly params: QueryParams },
  target: { readonly key: ObjectKey; readonly stagingPath: string },
  beforeCommit: () => void = () => undefined,
): Promise<{ rowCount: number; sizeBytes: number }> {
  try {
    await mkdir(path.dirname(target.stagingPath), { recursive: true });
    const written = await store.writeFile(query.sql, query.params, 'CSVWithNames', target.stagingPath);
    // A lease lost while the engine wrote: no upload at all.
    beforeCommit();
    const { bytes } = await objects.uploadFile(target.key, target.stagingPath, { contentType: CSV_CONTENT_TYPE, beforeCommit });
    return { rowCount: written.rows, sizeBytes: bytes };
  } finally {
    await rm(target.stagingPath, { force: true });
  }
}
