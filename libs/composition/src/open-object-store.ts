import type { AppConfig } from '@bpc/config';
import { FileObjectStore, S3ObjectStore, type ObjectStore } from '@bpc/object-store';

/**
 * Where page bodies and export files live: files under `data_dir`
 * (standalone, or a volume every replica mounts) or an S3-compatible bucket
 * (`adapters.object_store: s3`). Keys start with the owner's folder
 * (`cache/…`, `exports/…`), so existing data directories keep their layout.
 * The S3 credentials come from the environment (the SDK's default chain:
 * AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY …), never from the config file.
 */
export function openObjectStore(config: AppConfig): ObjectStore {
  if (config.adapters.object_store === 'files') return new FileObjectStore(config.data_dir);
  // The cross-check refuses `object_store: s3` without an s3 section at startup.
  const s3 = config.s3!;
  return new S3ObjectStore({
    bucket: s3.bucket,
    prefix: s3.prefix,
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: s3.force_path_style,
    requestTimeoutMs: s3.request_timeout_ms,
    maxAttempts: s3.max_attempts,
  });
}
