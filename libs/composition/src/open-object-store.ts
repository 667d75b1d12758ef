import type { AppConfig } from '@bpc/config';
import { FileObjectStore, type ObjectStore } from '@bpc/object-store';

/**
 * Where page bodies and export files live: files under `data_dir`
 * (standalone, or a volume every replica mounts). Keys start with the
 * owner's folder (`cache/…`, `exports/…`), so existing data directories keep
 * their layout.
 */
export function openObjectStore(config: AppConfig): ObjectStore {
  return new FileObjectStore(config.data_dir);
}
