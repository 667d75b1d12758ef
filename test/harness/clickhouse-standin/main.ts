/**
 * ClickHouse stand-in for tests: chDB in a process of its own behind the
 * subset of ClickHouse's HTTP interface @clickhouse/client uses, so test
 * processes (replicas) can share one explorer. Not a product component; see
 * docs/testing-clickhouse-standin.md.
 *
 * Run: `node -r ./scripts/swc-register.cjs test/harness/clickhouse-standin/main.ts`
 * with CLICKHOUSE_STANDIN_PATH (data directory, required),
 * CLICKHOUSE_STANDIN_PORT (0 = any free port; the default),
 * CLICKHOUSE_STANDIN_USER / CLICKHOUSE_STANDIN_PASSWORD (checked when given),
 * CLICKHOUSE_STANDIN_STOP_WITH_STDIN=1 (stop when stdin ends: its parent died),
 * CLICKHOUSE_STANDIN_REMOVE_DATA=1 (remove the data directory once stopped).
 * Prints one JSON line `{"port":…}` on stdout once it serves queries; stops
 * gracefully on SIGTERM or SIGINT.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { Readable, type Transform, type Writable } from 'node:stream';
import zlib from 'node:zlib';
import type { RawFormat } from '../../../libs/ports/explorer-store/src/explorer-store.port';
import { RAW_FORMATS, createHeaderDeduplicator } from '../../../libs/ports/explorer-store/src/raw-formats';
import { assertSingleStatement } from '../../../libs/ports/explorer-store/src/sql-statements';
import { ChdbEngine, type OneShotResult } from './chdb-engine';
import { type ClickhouseFailure, exceptionTrailer, failure, httpStatusOf, newExceptionTag, toClickhouseFailure } from './clickhouse-errors';
import { type Credentials, checkCredentials, credentialsOf, parseStatementRequest } from './http-request';

const path = requiredEnv('CLICKHOUSE_STANDIN_PATH');
const port = Number(process.env.CLICKHOUSE_STANDIN_PORT ?? 0);
const user = process.env.CLICKHOUSE_STANDIN_USER;
const expected: Credentials | undefined = user ? { username: user, password: process.env.CLICKHOUSE_STANDIN_PASSWORD ?? '' } : undefined;

const engine = new ChdbEngine(path);
/** Set on SIGTERM: connections close as soon as their response is sent, so the stop does not wait for clients' keep-alive. */
let stopping = false;
const TRAILING_FORMAT = /\bFORMAT\s+([A-Za-z0-9_]+)\s*;?\s*$/i;
/**
 * Row-per-line formats, whose chunks concatenate into the server's bytes
 * (`…WithNames` once their repeated header is cut): these stream. Document
 * formats (JSON, Pretty, Parquet, …) come whole from chDB, one-shot.
 */
const STREAMABLE_FORMATS: ReadonlySet<string> = new Set([...RAW_FORMATS, 'JSONStringsEachRow', 'JSONCompactStringsEachRow', 'TSV', 'TabSeparatedRaw', 'RowBinary', 'LineAsString']);

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'GET' && (url.pathname === '/ping' || (url.pathname === '/' && !url.searchParams.has('query')))) {
    res.writeHead(200, { 'Content-Type': 'text/plain; charset=UTF-8' }).end('Ok.\n');
    return;
  }
  if (url.pathname !== '/' || (req.method !== 'POST' && req.method !== 'GET')) {
    await sendFailure(req, res, failure(48, 'NOT_IMPLEMENTED', `${req.method} ${url.pathname} is not part of the ClickHouse stand-in`), false);
    return;
  }
  res.setHeader('X-ClickHouse-Timezone', 'UTC');
  let compress = false;
  try {
    const denied = expected && checkCredentials(credentialsOf(url, req.headers), expected);
    if (denied) throw denied;
    const request = parseStatementRequest(url, req.headers);
    res.setHeader('X-ClickHouse-Query-Id', request.queryId ?? randomUUID());
    compress = request.compressResponse;
    const body = await readBody(req);
    const inlineData = request.queryParam !== '' && body.length > 0;
    const statement = request.queryParam === '' ? body : request.queryParam;
    assertSingleStatementAsServer(statement);
    const sql = inlineData ? `${statement}\n${body}` : statement;
    if (sql.trim() === '') throw failure(62, 'SYNTAX_ERROR', 'Empty query');
    const format = TRAILING_FORMAT.exec(statement)?.[1] ?? request.defaultFormat;
    const running = await engine.run(sql, request.params, request, format, !inlineData && STREAMABLE_FORMATS.has(format));
    await sendResult(req, res, running, format, compress && acceptsGzip(req), inlineData);
  } catch (err) {
    await sendFailure(req, res, toClickhouseFailure(err), compress);
  }
}

/** The server refuses several statements in one request as ClickHouse does (chDB alone would run them all). */
function assertSingleStatementAsServer(sql: string): void {
  try {
    assertSingleStatement(sql);
  } catch {
    throw failure(62, 'SYNTAX_ERROR', 'Multi-statements are not allowed');
  }
}

async function sendResult(req: IncomingMessage, res: ServerResponse, running: Awaited<ReturnType<ChdbEngine['run']>>, format: string, gzip: boolean, inserted: boolean): Promise<void> {
  const tag = newExceptionTag();
  res.writeHead(200, {
    'Content-Type': 'text/plain; charset=UTF-8',
    'X-ClickHouse-Format': format,
    'X-ClickHouse-Summary': JSON.stringify(summaryOf(running.summary, inserted)),
    'X-ClickHouse-Exception-Tag': tag,
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
  });
  const out: Writable = gzip ? zlib.createGzip() : res;
  const piped = gzip ? pipeline(out as zlib.Gzip, res) : Promise.resolve();
  // The client went away: stop the statement instead of computing rows nobody reads.
  res.once('close', () => running.cancel());
  try {
    await pipeline(
      Readable.from(withTrailer(withSingleHeader(running.chunks, format), tag)),
      out,
    );
    await piped;
  } catch {
    running.cancel();
    res.destroy();
  }
}

async function* withSingleHeader(chunks: AsyncIterable<Uint8Array>, format: string): AsyncGenerator<Uint8Array> {
  const dedupe = (RAW_FORMATS as readonly string[]).includes(format) ? createHeaderDeduplicator(format as RawFormat) : (chunk: Uint8Array) => chunk;
  for await (const chunk of chunks) yield dedupe(chunk);
}

/** The rows, then, when the statement fails after they began, the exception block the client reads. */
async function* withTrailer(chunks: AsyncIterable<Uint8Array>, tag: string): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of chunks) yield chunk;
  } catch (err) {
    yield exceptionTrailer(toClickhouseFailure(err), tag);
  }
}

async function sendFailure(req: IncomingMessage, res: ServerResponse, failed: ClickhouseFailure, compress: boolean): Promise<void> {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  // Unread request bytes would otherwise be parsed as the next request on this keep-alive connection.
  if (!req.complete) res.setHeader('Connection', 'close');
  const body = Buffer.from(`${failed.text}\n`);
  const gzip = compress && acceptsGzip(req);
  res.writeHead(httpStatusOf(failed), {
    'Content-Type': 'text/plain; charset=UTF-8',
    'X-ClickHouse-Exception-Code': String(failed.code),
    ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
  });
  res.end(gzip ? zlib.gzipSync(body) : body);
}

function acceptsGzip(req: IncomingMessage): boolean {
  return /\bgzip\b/i.test(String(req.headers['accept-encoding'] ?? ''));
}

/** The request body as text, decompressed per `Content-Encoding` (the client compresses inserts when asked). */
async function readBody(req: IncomingMessage): Promise<string> {
  const encoding = String(req.headers['content-encoding'] ?? '').toLowerCase();
  const decoders: Record<string, () => Transform> = {
    gzip: () => zlib.createGunzip(),
    deflate: () => zlib.createInflate(),
    br: () => zlib.createBrotliDecompress(),
    zstd: () => zlib.createZstdDecompress(),
  };
  if (encoding !== '' && encoding !== 'identity' && !decoders[encoding]) throw failure(1001, 'UNKNOWN_COMPRESSION_METHOD', `Unknown Content-Encoding ${JSON.stringify(encoding)}`);
  const source: AsyncIterable<Buffer> = encoding === '' || encoding === 'identity' ? req : req.pipe(decoders[encoding]());
  const chunks: Buffer[] = [];
  for await (const chunk of source) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

/** `X-ClickHouse-Summary`: a streamed result's is sent before its rows, hence zeros (as ClickHouse without `wait_end_of_query`). */
function summaryOf(result: OneShotResult | undefined, inserted: boolean): Record<string, string> {
  const rows = String(result?.rowsRead ?? 0);
  const bytes = String(result?.bytesRead ?? 0);
  return {
    read_rows: rows,
    read_bytes: bytes,
    written_rows: inserted ? rows : '0',
    written_bytes: inserted ? bytes : '0',
    total_rows_to_read: '0',
    result_rows: '0',
    result_bytes: '0',
    elapsed_ns: String(Math.round((result?.elapsed ?? 0) * 1e9)),
  };
}

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} (the data directory) is required`);
  return value;
}

async function main(): Promise<void> {
  await engine.warmUp();
  const server = createServer((req, res) => {
    res.once('finish', () => {
      if (stopping) server.closeIdleConnections();
    });
    if (stopping) res.shouldKeepAlive = false;
    void handle(req, res).catch((err) => {
      process.stderr.write(`clickhouse stand-in: ${err instanceof Error ? err.stack : String(err)}\n`);
      res.destroy();
    });
  });
  server.keepAliveTimeout = 10_000;
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : port })}\n`);

  const stop = async () => {
    if (stopping) return;
    stopping = true;
    // Refuse new connections, let requests in flight finish (up to 5 s), then release chDB's directory.
    const drained = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeIdleConnections();
    const timer = setTimeout(() => server.closeAllConnections(), 5_000);
    await drained;
    clearTimeout(timer);
    await engine.close();
    if (process.env.CLICKHOUSE_STANDIN_REMOVE_DATA === '1') rmSync(path, { recursive: true, force: true });
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
  if (process.env.CLICKHOUSE_STANDIN_STOP_WITH_STDIN === '1') {
    process.stdin.once('end', () => void stop());
    process.stdin.resume();
  }
}

void main().catch((err) => {
  process.stderr.write(`clickhouse stand-in failed to start: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
