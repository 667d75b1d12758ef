import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { PassThrough, Transform, type Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { assertObjectKey, assertObjectPrefix } from './object-key';
import { ObjectStoreUnavailableError, type ObjectKey, type ObjectStore, type StoredObject } from './object-store.port';
import { classifyS3Error, s3Error } from './s3-errors';

const MIB = 1024 * 1024;
/** S3's own limits: a DeleteObjects request names at most 1000 keys, a presigned URL lives at most 7 days. */
const MAX_DELETE_BATCH = 1000;
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;
/** S3's smallest part but the last (lib-storage refuses less). */
const MIN_PART_SIZE = 5 * MIB;
/** Read size of a local file into an upload: fewer, larger chunks than the stream default of 64 KiB. */
const FILE_CHUNK_BYTES = MIB;

export interface S3ObjectStoreOptions {
  readonly bucket: string;
  /** Keys live under `<prefix>/`; '' (default) = the bucket's root. A safe key (see `ObjectKey`) without a trailing '/'. */
  readonly prefix?: string;
  /** An S3-compatible server (`http://minio:9000`); absent = AWS S3 in `region`. */
  readonly endpoint?: string;
  readonly region?: string;
  /** `http://endpoint/bucket/key` instead of `http://bucket.endpoint/key` (MinIO, s3rver). */
  readonly forcePathStyle?: boolean;
  /** Longest a connection attempt, and a request without progress, may take before it fails (and is retried). */
  readonly requestTimeoutMs?: number;
  /** Attempts per request, the first included (the SDK's retry with backoff between them). */
  readonly maxAttempts?: number;
  /** Part size of `upload`'s multipart uploads (≥ 5 MiB, S3's minimum); memory per upload is about `queueSize + 1` parts. */
  readonly partSizeBytes?: number;
  /** Parts of one upload sent at once. */
  readonly queueSize?: number;
  /** Keys per DeleteObjects request (≤ 1000). */
  readonly deleteBatchSize?: number;
  /** Longest `check` trusts its last probe write before writing another (HeadBucket runs on every check). */
  readonly probeWriteIntervalMs?: number;
  /**
   * Explicit credentials (tests). Absent = the SDK's default chain:
   * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY (/ AWS_SESSION_TOKEN), AWS_PROFILE,
   * web identity, ECS or instance metadata. Never read from the config file.
   */
  readonly credentials?: S3ClientConfig['credentials'];
  /** Wall clock for the probe interval (tests). */
  readonly now?: () => number;
}

/**
 * Objects in one bucket under one prefix of an S3-compatible store (cluster
 * mode: MinIO in compose, any S3 in production). Writes are single PUTs, or
 * multipart uploads completed only once every part is in, so an object
 * appears whole or not at all.
 */
export class S3ObjectStore implements ObjectStore {
  readonly location: string;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly prefix: string;
  /** For messages: where the store is, so an operator knows which one failed. */
  private readonly where: string;
  private readonly partSize: number;
  private readonly queueSize: number;
  private readonly deleteBatchSize: number;
  private readonly probeWriteIntervalMs: number;
  private readonly now: () => number;
  private lastProbeWriteAt = Number.NEGATIVE_INFINITY;

  constructor(options: S3ObjectStoreOptions) {
    const prefix = options.prefix ?? '';
    if (prefix !== '') assertObjectKey(prefix);
    this.bucket = options.bucket;
    this.prefix = prefix === '' ? '' : `${prefix}/`;
    this.location = `s3://${options.bucket}${prefix === '' ? '' : `/${prefix}`}`;
    this.where = `${this.location} at ${options.endpoint ?? `AWS S3 ${options.region ?? 'us-east-1'}`}`;
    this.partSize = Math.max(options.partSizeBytes ?? 8 * MIB, MIN_PART_SIZE);
    this.queueSize = options.queueSize ?? 2;
    this.deleteBatchSize = Math.min(Math.max(options.deleteBatchSize ?? MAX_DELETE_BATCH, 1), MAX_DELETE_BATCH);
    this.probeWriteIntervalMs = options.probeWriteIntervalMs ?? 60_000;
    this.now = options.now ?? Date.now;
    const timeout = options.requestTimeoutMs ?? 10_000;
    this.client = new S3Client({
      region: options.region ?? 'us-east-1',
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      credentials: options.credentials,
      maxAttempts: options.maxAttempts ?? 3,
      requestHandler: { connectionTimeout: timeout, requestTimeout: timeout },
      // Checksums only where S3 requires them: S3-compatible servers other than AWS differ in the newer default ones.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  async put(key: ObjectKey, body: Buffer, options: { readonly contentType?: string } = {}): Promise<void> {
    const Key = this.keyOf(key);
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: body, ContentLength: body.length, ContentType: options.contentType }));
    } catch (error) {
      throw this.failure(error, 'put', key);
    }
  }

  /**
   * `beforeCommit` runs when the source has ended, before the last part (or
   * the single PUT) and the completion are sent; when it throws, the source
   * stream errors, so the upload is never completed and lib-storage aborts it.
   */
  async upload(key: ObjectKey, source: Readable, options: { readonly contentType?: string; readonly beforeCommit?: () => void } = {}): Promise<{ bytes: number }> {
    const Key = this.keyOf(key);
    let bytes = 0;
    // The caller's own failure (the source's error, beforeCommit's throw) wins over whatever the abort that follows answers.
    let callerError: unknown;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
      flush(done) {
        try {
          options.beforeCommit?.();
          done();
        } catch (error) {
          callerError ??= error;
          done(error as Error);
        }
      },
    });
    source.once('error', (error) => {
      callerError ??= error;
      counted.destroy(error);
    });
    source.pipe(counted);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key, Body: counted, ContentType: options.contentType },
      partSize: this.partSize,
      queueSize: this.queueSize,
    });
    try {
      await upload.done();
      return { bytes };
    } catch (error) {
      const thrown = callerError ?? this.failure(error, 'upload', key);
      source.unpipe(counted);
      source.destroy();
      counted.destroy();
      throw thrown;
    }
  }

  async uploadFile(key: ObjectKey, file: string, options: { readonly contentType?: string; readonly beforeCommit?: () => void } = {}): Promise<{ bytes: number }> {
    try {
      return await this.upload(key, createReadStream(file, { highWaterMark: FILE_CHUNK_BYTES }), options);
    } finally {
      await unlink(file).catch(() => undefined);
    }
  }

  async read(key: ObjectKey): Promise<Buffer> {
    const Key = this.keyOf(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }));
      const bytes = await answer.Body!.transformToByteArray();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    } catch (error) {
      throw this.failure(error, 'read', key);
    }
  }

  open(key: ObjectKey): Readable {
    const Key = this.keyOf(key);
    const out = new PassThrough();
    const abort = new AbortController();
    out.once('close', () => abort.abort());
    this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key }), { abortSignal: abort.signal }).then(
      (answer) => {
        const body = answer.Body as Readable;
        if (out.destroyed) return body.destroy();
        body.once('error', (error) => out.destroy(this.failure(error, 'read', key)));
        out.once('close', () => body.destroy());
        body.pipe(out);
      },
      (error: unknown) => out.destroy(this.failure(error, 'read', key)),
    );
    return out;
  }

  async stat(key: ObjectKey): Promise<{ bytes: number } | undefined> {
    const Key = this.keyOf(key);
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key }));
      return { bytes: head.ContentLength ?? 0 };
    } catch (error) {
      if (classifyS3Error(error, 'object') === 'gone') return undefined;
      throw this.failure(error, 'stat', key);
    }
  }

  async remove(keys: readonly ObjectKey[]): Promise<void> {
    const all = keys.map((key) => this.keyOf(key));
    for (let start = 0; start < all.length; start += this.deleteBatchSize) {
      const batch = all.slice(start, start + this.deleteBatchSize);
      let answer;
      try {
        answer = await this.client.send(new DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }));
      } catch (error) {
        throw this.failure(error, `remove (${batch.length} keys)`);
      }
      // A missing key is no error to S3; anything it lists here was not removed.
      const failed = (answer.Errors ?? []).filter((e) => e.Code !== 'NoSuchKey');
      if (failed.length > 0) {
        const first = failed[0];
        throw new ObjectStoreUnavailableError(`object store ${this.where}: remove failed for ${failed.length} of ${batch.length} keys, first ${first.Key}: ${first.Code} ${first.Message ?? ''}`.trim());
      }
    }
  }

  async *list(prefix: ObjectKey): AsyncIterable<StoredObject> {
    assertObjectPrefix(prefix);
    const pages = paginateListObjectsV2({ client: this.client, pageSize: 1000 }, { Bucket: this.bucket, Prefix: `${this.prefix}${prefix}` });
    try {
      for await (const page of pages) {
        for (const object of page.Contents ?? []) {
          const key = object.Key!.slice(this.prefix.length);
          // Not one of ours (a folder marker, the readiness probe, a foreign name): never handed out as a key.
          if (!isObjectKey(key)) continue;
          yield { key, bytes: object.Size ?? 0, modifiedAt: object.LastModified?.getTime() ?? 0 };
        }
      }
    } catch (error) {
      throw this.failure(error, `list ${prefix === '' ? '(all)' : prefix}`);
    }
  }

  async presignedUrl(key: ObjectKey, expiresInSeconds: number, options: { readonly contentDisposition?: string; readonly contentType?: string } = {}): Promise<string> {
    const Key = this.keyOf(key);
    if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_PRESIGN_SECONDS) {
      throw new RangeError(`expiresInSeconds must be an integer from 1 to ${MAX_PRESIGN_SECONDS} (S3's limit), not ${expiresInSeconds}`);
    }
    const command = new GetObjectCommand({ Bucket: this.bucket, Key, ResponseContentDisposition: options.contentDisposition, ResponseContentType: options.contentType });
    return getSignedUrl(this.client, command, { expiresIn: expiresInSeconds });
  }

  /**
   * HeadBucket on every call (reachable, bucket present, credentials accepted),
   * plus a probe write and delete at most once per `probeWriteIntervalMs`: a
   * read-only policy passes HeadBucket and would otherwise fail only on the
   * first render, while a write per readiness probe costs a request each time.
   * The probe's key starts with '.', which no object key does.
   */
  async check(): Promise<void> {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }));
    } catch (error) {
      throw this.failure(error, 'check (HeadBucket)', undefined, 'bucket');
    }
    if (this.now() - this.lastProbeWriteAt < this.probeWriteIntervalMs) return;
    const Key = `${this.prefix}.probe-${randomBytes(4).toString('hex')}`;
    try {
      await this.client.send(new PutObjectCommand({ Bucket: this.bucket, Key, Body: Buffer.alloc(0), ContentLength: 0 }));
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key }));
    } catch (error) {
      throw this.failure(error, 'check (probe write)', undefined, 'bucket');
    }
    this.lastProbeWriteAt = this.now();
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private keyOf(key: ObjectKey): string {
    assertObjectKey(key);
    return `${this.prefix}${key}`;
  }

  private failure(error: unknown, operation: string, key?: ObjectKey, subject: 'object' | 'bucket' = 'object'): Error {
    return s3Error(error, { operation, key, store: this.where, subject });
  }
}

function isObjectKey(key: string): boolean {
  try {
    assertObjectKey(key);
    return true;
  } catch {
    return false;
  }
}
