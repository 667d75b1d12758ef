import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { AppConfig } from '@bpc/config';
import { S3ObjectStore } from '@bpc/object-store';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { freePort, insertBulkBotRequests, jsonOf, startS3Server, testConfig, until, type RunningS3Server } from '@bpc/testing';
import { publicApiApp } from '../../apps/public-api/src/public-api.app';
import { issueToken } from './explorer-fixtures';

const ROWS = 2_000;
const HEADER = '"page","event_date_time","bot_name","serve_time"';

/**
 * Issue 45 §1, exports on S3: two public-api replicas in cluster mode with
 * `adapters.object_store: s3` on one s3rver; A streams downloads from the
 * bucket, B (`exports.download_redirect`) answers them with a presigned URL.
 */
describe('Data Explorer CSV exports on S3 (cluster mode, object_store: s3)', () => {
  let s3: RunningS3Server;
  let config: AppConfig;
  let streaming: RunningApps;
  let redirecting: RunningApps;
  let bucket: S3ObjectStore;
  let ann: string;
  /** Exports that completed in this file: the only objects `exports/` may hold. */
  const completedIds: number[] = [];
  const savedCredentials = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };

  const urlOf = (running: RunningApps) => running.urls['public-api']!;
  const headers = () => ({ authorization: `Bearer ${ann}`, 'content-type': 'application/json' });
  const exportCall = async (body: Record<string, unknown>) => {
    const response = await fetch(`${urlOf(streaming)}/api/websites/demo/data-explorer/events/export`, { method: 'POST', headers: headers(), body: JSON.stringify(body) });
    return { status: response.status, body: await jsonOf(response) };
  };
  const status = async (exportId: number) => jsonOf(await fetch(`${urlOf(streaming)}/api/websites/demo/data-explorer/export/${exportId}/status`, { headers: headers() }));
  const finished = (exportId: number) => until(() => status(exportId), (record) => record.status !== 'running', { timeoutMs: 30_000, intervalMs: 100, what: `export ${exportId} finished` });
  /** The signed link, sent to one replica (links name the public base URL, here the replica that minted them). */
  const download = (running: RunningApps, link: string) => fetch(link.replace(/^https?:\/\/[^/]+/, urlOf(running)), { redirect: 'manual' });
  const exportObjects = async (): Promise<string[]> => {
    const keys: string[] = [];
    for await (const object of bucket.list('exports/')) keys.push(object.key);
    return keys.sort();
  };

  beforeAll(async () => {
    s3 = await startS3Server();
    // The S3 adapter takes its credentials from the SDK's default chain, as in production.
    process.env.AWS_ACCESS_KEY_ID = s3.credentials.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.credentials.secretAccessKey;
    config = testConfig('cluster', {
      adapters: { event_log: 'kafka', queue_store: 'redis', explorer_store: 'chdb', object_store: 's3' },
      s3: { bucket: s3.bucket, prefix: 'deployment', endpoint: s3.endpoint, region: s3.region, force_path_style: true, request_timeout_ms: 1_000, max_attempts: 1 },
      scheduler: { enabled: false },
      rate_limit: { enabled: false },
    });
    const replica = async (name: string, exports: Record<string, unknown>) =>
      startApps([publicApiApp], { ...config, listen: { ...config.listen, public_api: await freePort() }, exports: { ...config.exports, ...exports } }, createLogger('silent', name));
    [streaming, redirecting] = await Promise.all([replica('exports-s3-stream', {}), replica('exports-s3-redirect', { download_redirect: true })]);
    bucket = new S3ObjectStore({ bucket: s3.bucket, prefix: 'deployment', endpoint: s3.endpoint, region: s3.region, forcePathStyle: true, credentials: s3.credentials });
    ann = (await issueToken(urlOf(streaming), { user: 'ann', website: 'demo', role: 'readonly' })).token;
    await insertBulkBotRequests(streaming.runtime.ports.explorerStore!, 'demo', ROWS, Date.now() - 60_000);
  });

  afterAll(async () => {
    await Promise.all([streaming?.close(), redirecting?.close()]);
    await bucket?.close();
    await s3?.close();
    if (config) rmSync(config.data_dir, { recursive: true, force: true });
    process.env.AWS_ACCESS_KEY_ID = savedCredentials.id;
    process.env.AWS_SECRET_ACCESS_KEY = savedCredentials.secret;
    if (savedCredentials.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
    if (savedCredentials.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
  });

  it('completes an export into the bucket; the signed link streams it from S3, and with download_redirect answers 302 to a presigned URL of the same bytes and filename', async () => {
    const started = await exportCall({ period: '30d', filename: 'bots on s3', waitSeconds: 30 });
    expect(started).toMatchObject({ status: 200, body: { status: 'completed', rowCount: ROWS, filename: 'bots on s3.csv' } });
    const { exportId, downloadUrl } = started.body as { exportId: number; downloadUrl: string };
    completedIds.push(exportId);
    expect(await exportObjects()).toEqual([`exports/${exportId}.csv`]);
    expect(await bucket.stat(`exports/${exportId}.csv`)).toEqual({ bytes: started.body.sizeBytes });

    const streamed = await download(streaming, downloadUrl);
    expect(streamed.status).toBe(200);
    expect(streamed.headers.get('content-disposition')).toMatch(/^attachment; filename="bots on s3\.csv"/);
    const bytes = Buffer.from(await streamed.arrayBuffer());
    expect(bytes.length).toBe(started.body.sizeBytes);
    const lines = bytes.toString().split('\r\n');
    expect([lines[0], lines.length]).toEqual([HEADER, ROWS + 2]);

    // The other replica learns the export from the log, then redirects the same link to the bucket.
    const redirected = await until(() => download(redirecting, downloadUrl), (response) => response.status !== 403, { timeoutMs: 15_000, intervalMs: 100, what: 'the redirecting replica knowing the export' });
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('cache-control')).toBe('private, no-store');
    const presigned = redirected.headers.get('location')!;
    expect(presigned).toMatch(new RegExp(`^${s3.endpoint}/${s3.bucket}/deployment/exports/${exportId}\\.csv\\?.*X-Amz-Signature=`));
    const fromBucket = await fetch(presigned);
    expect(fromBucket.status).toBe(200);
    expect(fromBucket.headers.get('content-disposition')).toBe(streamed.headers.get('content-disposition'));
    expect(fromBucket.headers.get('content-type')).toBe(streamed.headers.get('content-type'));
    expect(Buffer.from(await fromBucket.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('fails an export cleanly while S3 is down (GENERATION_FAILED, no object left, the slot free), answers downloads 503 STORE_UNAVAILABLE, and works again once S3 is back', async () => {
    const done = await exportCall({ period: '30d', maxRows: 10, filename: 'before', waitSeconds: 30 });
    expect(done.body).toMatchObject({ status: 'completed', rowCount: 10 });
    completedIds.push(done.body.exportId as number);

    await s3.stop();
    let failedId: number;
    try {
      const started = await exportCall({ period: '30d', maxRows: 20, filename: 'during-outage', waitSeconds: 30 });
      expect(started.status).toBe(200);
      failedId = started.body.exportId as number;
      const failed = await finished(failedId);
      expect(failed).toEqual({ status: 'failed', exportId: failedId, error: 'GENERATION_FAILED', errorMessage: expect.any(String), startedFrom: 'api', createdAt: expect.any(String) });
      // Nothing staged is left behind on the replica's disk.
      expect(readdirSync(path.join(config.data_dir, 'export-staging'))).toEqual([]);

      for (const running of [streaming, redirecting]) {
        const answer = await download(running, done.body.downloadUrl as string);
        expect({ status: answer.status, body: await jsonOf(answer) }).toEqual({ status: 503, body: { code: 'STORE_UNAVAILABLE', message: expect.stringMatching(/export file store/) } });
      }
      // The account's slot is free: the next export starts (and fails the same way while the store is down).
      const next = await exportCall({ period: '30d', maxRows: 30, filename: 'next-during-outage', waitSeconds: 30 });
      expect(next.body).toMatchObject({ status: 'failed', error: 'GENERATION_FAILED' });
    } finally {
      await s3.restart();
    }

    // Back, same apps: the earlier file downloads, a new export completes, and no failed export left an object.
    expect((await download(streaming, done.body.downloadUrl as string)).status).toBe(200);
    const after = await exportCall({ period: '30d', maxRows: 40, filename: 'after-outage', waitSeconds: 30 });
    expect(after.body).toMatchObject({ status: 'completed', rowCount: 40 });
    completedIds.push(after.body.exportId as number);
    expect(await exportObjects()).toEqual(completedIds.map((id) => `exports/${id}.csv`).sort());
    expect(await bucket.stat(`exports/${failedId!}.csv`)).toBeUndefined();
  });
});
