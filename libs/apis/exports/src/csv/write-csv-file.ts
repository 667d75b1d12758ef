import { rm } from 'node:fs/promises';
import { publishFile } from '@bpc/durable-fs';
import type { ExplorerStore, QueryParams } from '@bpc/explorer-store';

/**
 * Has the store write the export's CSV (`CSVWithNames`) to
 * `<finalPath>.part`, the engine's bytes going to the file without passing
 * through memory here and the rows counted by the engine; then `beforePublish`
 * (which throws to stop, e.g. when the slot lease is lost), then it is
 * published durably (fsync, rename, fsync of the directory),
 * so a file under its final name is always complete. A failure removes the
 * partial file.
 */
export async function writeCsvFile(
  store: ExplorerStore,
  query: { readonly sql: string; readonly params: QueryParams },
  finalPath: string,
  beforePublish: () => void = () => undefined,
): Promise<{ rowCount: number; sizeBytes: number }> {
  const partPath = `${finalPath}.part`;
  try {
    const written = await store.writeFile(query.sql, query.params, 'CSVWithNames', partPath);
    beforePublish();
    await publishFile(partPath, finalPath);
    return { rowCount: written.rows, sizeBytes: written.bytes };
  } catch (error) {
    await rm(partPath, { force: true });
    throw error;
  }
}
