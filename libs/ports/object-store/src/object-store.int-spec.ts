import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { startS3Server, until, type RunningS3Server } from '@bpc/testing';
import { describeObjectStoreContract } from './object-store.contract-spec';
import { FileObjectStore } from './file-object-store';
import { ObjectGoneError, ObjectStoreUnavailableError } from './object-store.port';
import { S3ObjectStore, type S3ObjectStoreOptions } from './s3-object-store';

const MIB = 1024 * 1024;
const directories: string[] = [];
let s3: RunningS3Server;

beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describeObjectStoreContract('files', async () => {
  const directory = mkdtempSync(path.join(tmpdir(), 'bpc-objects-'));
  directories.push(directory);
  return new FileObjectStore(directory);
});

/** A store on the test server under a prefix of its own, so tests never see each other's objects. */
function s3Store(options: Partial<S3ObjectStoreOptions> = {}): S3ObjectStore {
  return new S3ObjectStore({
    bucket: s3.bucket,
    prefix: `test-${randomUUID()}`,
    endpoint: s3.endpoint,
    region: s3.region,
    forcePathStyle: true,
    credentials: s3.credentials,
    partSizeBytes: 5 * MIB,
    deleteBatchSize: 10,
    ...options,
  });
}

describeObjectStoreContract('s3', async () => s3Store());

describe('S3ObjectStore', () => {
  const admin = () => new S3Client({ endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: s3.credentials });

  it('keeps its objects under `<prefix>/` and names itself s3://bucket/prefix', async () => {
    const store = s3Store({ prefix: 'tenant-a/objects' });
    try {
      expect(store.location).toBe(`s3://${s3.bucket}/tenant-a/objects`);
      await store.put('exports/1.csv', Buffer.from('x'));
      const client = admin();
      await expect(client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'tenant-a/objects/exports/1.csv' }))).resolves.toMatchObject({ ContentLength: 1 });
      // A foreign or marker name under the prefix is never handed out as a key.
      await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'tenant-a/objects/exports/bad name', Body: 'x' }));
      await client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: 'tenant-a/objects/exports/dir/', Body: Buffer.alloc(0), ContentLength: 0 }));
      client.destroy();
      const keys: string[] = [];
      for await (const object of store.list('exports/')) keys.push(object.key);
      expect(keys).toEqual(['exports/1.csv']);
    } finally {
      await store.remove(['exports/1.csv']);
      await store.close();
    }
  });

  it('uploads a stream larger than a part as a multipart upload, completed only at the end, and aborts it when beforeCommit throws', async () => {
    // A server of its own that logs its requests: s3rver's ETag of a multipart object is a plain MD5, so the requests are what show the parts.
    const server = await startS3Server({ logRequests: true });
    const store = new S3ObjectStore({ bucket: server.bucket, prefix: 'multipart', endpoint: server.endpoint, forcePathStyle: true, credentials: server.credentials, partSizeBytes: 5 * MIB });
    try {
      await store.upload('big.bin', Readable.from([Buffer.alloc(6 * MIB, 1), Buffer.alloc(5 * MIB, 2)]));
      expect(await store.stat('big.bin')).toEqual({ bytes: 11 * MIB });
      const logged = (pattern: RegExp) => server.log().filter((line) => pattern.test(line));
      await until(() => logged(/Stored object "multipart\/big\.bin"/).length === 1, { what: 'big.bin stored' });
      expect(logged(/Stored part \d+ of/)).toHaveLength(3);

      const lease = new Error('lease lost');
      await expect(store.upload('lost.bin', Readable.from([Buffer.alloc(11 * MIB, 3)]), { beforeCommit: () => { throw lease; } })).rejects.toBe(lease);
      // The abort is sent: s3rver has no AbortMultipartUpload and answers 405 (the parts stay in its upload area, never published).
      await until(() => logged(/lost\.bin\?uploadId=\w+&x-id=AbortMultipartUpload 405/).length === 1, { what: () => `the abort of lost.bin in ${server.log().slice(-8).join('\n')}` });
      expect(logged(/Stored part \d+ of/)).toHaveLength(5);
      expect(logged(/Stored object "multipart\/lost\.bin"/)).toEqual([]);
      expect(await store.stat('lost.bin')).toBeUndefined();
    } finally {
      await store.close();
      await server.close();
    }
  });

  it('hands out a presigned GET URL carrying the attachment name and type', async () => {
    const store = s3Store();
    try {
      await store.put('exports/7.csv', Buffer.from('a,b\n1,2\n'), { contentType: 'application/octet-stream' });
      const url = await store.presignedUrl('exports/7.csv', 300, { contentDisposition: 'attachment; filename="report-7.csv"', contentType: 'text/csv; charset=utf-8' });
      const answer = await fetch(url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-disposition')).toBe('attachment; filename="report-7.csv"');
      expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
      expect(await answer.text()).toBe('a,b\n1,2\n');
      await expect(store.presignedUrl('exports/7.csv', 8 * 24 * 3600)).rejects.toBeInstanceOf(RangeError);
    } finally {
      await store.close();
    }
  });

  it('reports a missing bucket and refused credentials by name in check', async () => {
    const missing = s3Store({ bucket: 'no-such-bucket' });
    const denied = s3Store({ credentials: { accessKeyId: 'WRONG', secretAccessKey: 'WRONG' } });
    try {
      await expect(missing.check()).rejects.toThrow(new RegExp(`s3://no-such-bucket/test-[0-9a-f-]+ at ${s3.endpoint}: check \\(HeadBucket\\) failed: bucket missing`));
      await expect(denied.check()).rejects.toThrow(/: check \(HeadBucket\) failed: access denied/);
      await expect(denied.read('x.body')).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
    } finally {
      await missing.close();
      await denied.close();
    }
  });

  it('fails every operation with ObjectStoreUnavailableError naming the store while it is down, and works again once it is back, same adapter', async () => {
    const store = s3Store({ maxAttempts: 2, requestTimeoutMs: 2_000 });
    try {
      await store.put('kept.body', Buffer.from('kept'));
      await store.check();
      await s3.stop();
      const down = new RegExp(`object store s3://${s3.bucket}/test-[0-9a-f-]+ at ${s3.endpoint}: .* failed: unreachable`);
      await expect(store.read('kept.body')).rejects.toThrow(down);
      await expect(store.read('kept.body')).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
      await expect(store.put('new.body', Buffer.from('new'))).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
      await expect(store.upload('new.body', Readable.from([Buffer.from('new')]))).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
      await expect(store.stat('kept.body')).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
      await expect(store.remove(['kept.body'])).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
      await expect(store.check()).rejects.toThrow(down);
      const streamed = (async () => {
        for await (const _ of store.open('kept.body')) void _;
      })();
      await expect(streamed).rejects.toBeInstanceOf(ObjectStoreUnavailableError);
      const listed = (async () => {
        for await (const _ of store.list('')) void _;
      })();
      await expect(listed).rejects.toBeInstanceOf(ObjectStoreUnavailableError);

      await s3.restart();
      expect((await store.read('kept.body')).toString()).toBe('kept');
      await store.put('new.body', Buffer.from('new'));
      expect((await store.read('new.body')).toString()).toBe('new');
      await expect(store.check()).resolves.toBeUndefined();
      await store.remove(['kept.body', 'new.body']);
      await expect(store.read('kept.body')).rejects.toBeInstanceOf(ObjectGoneError);
    } finally {
      await store.close();
    }
  });
});
