/** Every export file's key starts with this: the folder `data_dir/exports` with the file adapter, the layout export files always had. */
export const EXPORT_OBJECTS_PREFIX = 'exports/';

/** The object store key of an export's CSV file. */
export function exportObjectKey(exportId: number): string {
  return `${EXPORT_OBJECTS_PREFIX}${exportId}.csv`;
}

/** The export whose file `key` is, or undefined for any other object under the prefix. */
export function exportIdOfObjectKey(key: string): number | undefined {
  const id = /^exports\/(\d{1,15})\.csv$/.exec(key)?.[1];
  return id === undefined ? undefined : Number(id);
}
