import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { CreateBucketCommand, HeadBucketCommand, ListBucketsCommand, S3Client } from '@aws-sdk/client-s3';
import { freePort } from './engines';
import { spawnNode, type SpawnedService } from './spawned-service';
import { until } from './until';

/** The only credentials s3rver accepts for signed requests. */
const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } as const;
const S3RVER_BIN = require.resolve('s3rver/bin/s3rver.js');

/** An S3-protocol server (s3rver) for tests, with one bucket. */
export interface RunningS3Server {
  /** `http://127.0.0.1:<port>`: path-style addressing only (no bucket subdomains on loopback). */
  readonly endpoint: string;
  readonly port: number;
  readonly bucket: string;
  readonly region: string;
  readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string };
  /**
   * s3rver's log lines since the last start, with `logRequests` (none
   * otherwise), printed after it answers: wait for a line with `until`. Its
   * request lines lose their first 16 characters (method and bucket, a quirk
   * of its koa-logger wrapper); its "Stored part N of <uploadId>" and
   * "Stored object" lines are whole.
   */
  log(): string[];
  /** Stops the process (connections refused from then on); the data stays for `restart`. */
  stop(): Promise<void>;
  /** Starts it again on the same port and data directory; resolves once it answers. */
  restart(): Promise<void>;
  /** Stops it for good and removes its data. */
  close(): Promise<void>;
}

/**
 * Starts s3rver as a child process on a free loopback port, data in a temp
 * directory, and creates `bucket` through the S3 API. A child process, not
 * an in-process instance: stopping it is what an outage looks like (the port
 * refuses, kept-alive sockets reset), it restarts on the same port, and its
 * request handling (MD5 of every body, XML) stays off the test's event loop.
 */
export async function startS3Server(options: { readonly bucket?: string; readonly logRequests?: boolean } = {}): Promise<RunningS3Server> {
  const port = await freePort();
  const directory = mkdtempSync(path.join(tmpdir(), 'bpc-s3rver-'));
  const bucket = options.bucket ?? 'bpc-test';
  const endpoint = `http://127.0.0.1:${port}`;
  const region = 'us-east-1';
  const admin = new S3Client({ endpoint, region, forcePathStyle: true, credentials: S3RVER_CREDENTIALS, maxAttempts: 1, requestHandler: { connectionTimeout: 1_000, requestTimeout: 5_000 } });
  let service: SpawnedService | undefined;

  const launch = async (awaited: () => Promise<unknown>): Promise<void> => {
    const started = spawnNode([S3RVER_BIN, '--directory', directory, '--address', '127.0.0.1', '--port', String(port), ...(options.logRequests ? [] : ['--silent'])], {});
    service = started;
    const answers = async (): Promise<boolean> => {
      if (started.child.exitCode !== null) throw new Error(`s3rver exited early:\n${started.output().slice(-3000)}`);
      return awaited().then(
        () => true,
        () => false,
      );
    };
    await until(answers, { timeoutMs: 15_000, intervalMs: 50, what: () => `s3rver at ${endpoint} answering\n${started.output().slice(-3000)}` });
  };
  const stop = async (): Promise<void> => {
    const running = service;
    service = undefined;
    if (!running || running.child.exitCode !== null || running.child.signalCode !== null) return;
    running.child.kill('SIGTERM');
    await running.exited;
  };

  await launch(() => admin.send(new ListBucketsCommand({})));
  await admin.send(new CreateBucketCommand({ Bucket: bucket }));
  return {
    endpoint,
    port,
    bucket,
    region,
    credentials: S3RVER_CREDENTIALS,
    log: () =>
      stripVTControlCharacters(service?.output() ?? '')
        .split('\n')
        .filter((line) => line.startsWith('info: ')),
    stop,
    restart: async () => {
      await stop();
      await launch(() => admin.send(new HeadBucketCommand({ Bucket: bucket })));
    },
    close: async () => {
      await stop();
      admin.destroy();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
