import type { Readable } from 'node:stream';

export const OBJECT_STORE = Symbol('OBJECT_STORE');

/**
 * An object's name inside the store: a relative POSIX path of safe segments
 * (`[A-Za-z0-9._-]`, no `.` or `..` segment, no leading or doubled `/`), at
 * most 512 bytes, e.g. `bodies/17/ab/<sha256>.<createdAt>.<random>.body` or
 * `exports/42.csv`. Adapters refuse anything else with a RangeError before
 * touching the store, so a key can never leave its directory or prefix.
 */
export type ObjectKey = string;

/** One object as a listing sees it. */
export interface StoredObject {
  readonly key: ObjectKey;
  readonly bytes: number;
  /** Epoch ms of the last write (the file's mtime, the object's LastModified). */
  readonly modifiedAt: number;
}

/** A read found no object under the key (never written, or removed meanwhile). */
export class ObjectGoneError extends Error {
  override readonly name = 'ObjectGoneError';
}

/**
 * The store is out of reach (connection refused, timeout, 5xx, throttling):
 * the operation may succeed later. Readiness reports it; callers answer
 * uncached or fail cleanly, never half-apply.
 */
export class ObjectStoreUnavailableError extends Error {
  override readonly name = 'ObjectStoreUnavailableError';
}

/**
 * Immutable objects under one directory (standalone: local disk) or one
 * bucket and prefix (cluster: an S3-compatible store). Callers write each
 * object once under a fresh key and never rewrite it, so a reader that holds
 * a key always reads the bytes that were written under it, and a cache of
 * objects keyed by their key is never stale.
 *
 * Guarantees, for every adapter:
 * - `put` and `upload` are all-or-nothing: a reader sees the whole object or
 *   none (files: temp file, fsync, rename, directory fsync; S3: a single PUT,
 *   or a multipart upload completed only at the end and aborted on failure).
 *   A failed or aborted write leaves no object under the key.
 * - `read`/`open` of a missing key fail with `ObjectGoneError`; an unreachable
 *   store fails with `ObjectStoreUnavailableError`.
 * - `remove` of a missing key is not an error; it answers once every key
 *   named is gone.
 * - `list` yields every object under a key prefix, in no guaranteed order;
 *   objects written or removed while it runs may or may not be seen.
 */
export interface ObjectStore {
  /** Where objects live, for logs and readiness: `file:///var/lib/bpc/cache` or `s3://bucket/prefix`. */
  readonly location: string;
  /** Writes a whole object from memory. */
  put(key: ObjectKey, body: Buffer, options?: { readonly contentType?: string }): Promise<void>;
  /**
   * Writes an object from a stream of unknown length (S3: multipart through
   * `@aws-sdk/lib-storage`), memory bounded by the part size; answers its size.
   * When `beforeCommit` throws (a lease lost, say), the object is not
   * published and the write rejects with that error.
   */
  upload(key: ObjectKey, source: Readable, options?: { readonly contentType?: string; readonly beforeCommit?: () => void }): Promise<{ bytes: number }>;
  /**
   * Publishes a finished local file as the object and consumes it (it is
   * gone afterwards, published or not): the file adapter moves it into
   * place when it is on the store's filesystem (no copy: an export the engine
   * wrote costs one rename), S3 uploads it as `upload` does. `beforeCommit`
   * as in `upload`.
   */
  uploadFile(key: ObjectKey, file: string, options?: { readonly contentType?: string; readonly beforeCommit?: () => void }): Promise<{ bytes: number }>;
  /** The whole object. */
  read(key: ObjectKey): Promise<Buffer>;
  /** Streams the object; the stream errors with `ObjectGoneError` when it is missing. */
  open(key: ObjectKey): Readable;
  /** The object's size, or undefined when there is none. */
  stat(key: ObjectKey): Promise<{ bytes: number } | undefined>;
  /** Removes objects; missing ones are skipped. */
  remove(keys: readonly ObjectKey[]): Promise<void>;
  /** Every object whose key starts with `prefix` ('' for all). */
  list(prefix: ObjectKey): AsyncIterable<StoredObject>;
  /**
   * A URL a client can GET the object from directly for `expiresInSeconds`
   * (S3: a presigned GET carrying the attachment name), or undefined when the
   * adapter has none (files).
   */
  presignedUrl?(key: ObjectKey, expiresInSeconds: number, options?: { readonly contentDisposition?: string; readonly contentType?: string }): Promise<string>;
  /** Readiness: resolves when the store answers and accepts writes, rejects with the reason. */
  check(): Promise<void>;
  close(): Promise<void>;
}
