import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { sha256Hex } from '@bpc/domain';
import { S3ObjectStore } from '@bpc/object-store';
import { startKafkaMock, startRedis } from '../test/harness/engines';
import { rawRequest } from '../test/harness/http';
import { startS3Server, type RunningS3Server } from '../test/harness/s3-server';
import type { SpawnedService } from '../test/harness/spawned-service';
import { bypassHost, testConfig } from '../test/harness/test-config';
import { TestOrigin } from '../test/harness/test-origin';
import { projectorApp } from '../apps/projector/src/projector.app';
import { publicApiApp } from '../apps/public-api/src/public-api.app';
import type { BenchRow, BenchSuite } from './bench-row';
import { issueBenchToken } from './bench-service';
import { childPidsRunning, distinctFreePorts, loadAverage, spawnBuiltApp, stopService, treeCpuMs } from './bench-processes';
import { botRequestsSql } from './explorer.bench';
import { exportsBenchConfig, exportUntilCompleted } from './exports.bench';
import { median } from './stats';
import { wrk } from './wrk';

/**
 * Issue 45 §4's object-store targets, the S3 adapter (s3rver, a child
 * process on this machine) against the files adapter in the same run:
 *
 * - hits of one page with a warm in-process body cache: an edge per
 *   adapter (cluster mode, the edge app alone, built, on the Kafka mock and
 *   Redis), wrk at 100 connections, rounds alternating their order;
 * - cold hits: `N_COLD` pages stored, `edge.body_cache_mb: 1` (~20 bodies
 *   of this size), each page asked for in turn over one kept-alive
 *   connection, so every hit reads its body from the store;
 * - a 1,000,000-row CSV export (standalone apps in a child process per
 *   adapter, chDB in it, alternating), time and RSS growth.
 */

const TOKEN = 'bench-object-store-token';
const botHeaders = { 'x-prerender-token': TOKEN, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'accept-encoding': 'gzip, deflate, br' };
const PAGE = 'https://www.example.com/pricing?plan=pro';
const ROUNDS = Number(process.env.BENCH_OBJECT_STORE_ROUNDS ?? 5);
const N_COLD = 300;
const COLD_PASSES = 4;
const TABLE_ROWS = Number(process.env.BENCH_OBJECT_STORE_TABLE_ROWS ?? 5_000_000);
const EXPORT_ROWS = 1_000_000;
const EXPORT_CHILDREN = 2;
const EXPORT_ROUNDS = 2;
const MB = 1024 * 1024;
const EXPORT_CHILD = '--object-store-bench-export';

type Adapter = 'files' | 's3';

/** ~40 KB of HTML, as the edge bench's page. */
function pageHtml(): string {
  const items = Array.from({ length: 300 }, (_, i) => `<li class="plan-item"><a href="/pricing/item-${i}">Feature ${i}: unlimited seats, audit log ${i % 7}</a></li>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pricing — Example</title></head><body><main><h1>Pricing</h1><ul>${items}</ul></main></body></html>`;
}

function s3Section(s3: RunningS3Server, prefix: string) {
  return { endpoint: s3.endpoint, bucket: s3.bucket, prefix, force_path_style: true };
}

const s3Env = (s3: RunningS3Server) => ({ AWS_ACCESS_KEY_ID: s3.credentials.accessKeyId, AWS_SECRET_ACCESS_KEY: s3.credentials.secretAccessKey });

interface Edge {
  readonly adapter: Adapter;
  readonly url: string;
  readonly service: SpawnedService;
  readonly dataDir: string;
}

async function startEdge(adapter: Adapter, originUrl: string, engines: { redis: string; kafka: string[] }, s3: RunningS3Server): Promise<Edge> {
  const cfg = testConfig(
    'cluster',
    {
      logging: { level: 'silent' },
      rate_limit: { enabled: false },
      edge: { body_cache_mb: 1 },
      hosts: [bypassHost(originUrl)],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) }],
      ...(adapter === 's3' ? { s3: s3Section(s3, `edge-${Date.now()}`) } : {}),
    },
    { kafkaBrokers: engines.kafka, redisUrl: engines.redis },
  );
  const [port, ...others] = await distinctFreePorts(4);
  const listen = { host: '127.0.0.1', edge: port, public_api: others[0], daemon: others[1], projector: others[2] };
  const file = path.join(cfg.data_dir, 'bench-config.json');
  writeFileSync(file, JSON.stringify({ ...cfg, listen, adapters: { ...cfg.adapters, object_store: adapter } }));
  const url = `http://127.0.0.1:${port}`;
  const service = await spawnBuiltApp('edge', file, `${url}/health/ready`, s3Env(s3));
  return { adapter, url, service, dataDir: cfg.data_dir };
}

async function get(edge: Edge, page: string, agent?: Agent) {
  return rawRequest(edge.url, `/${page}`, { headers: botHeaders, agent });
}

/** Stores `page` (one miss) and checks the next answer is a hit. */
async function warm(edge: Edge, page: string): Promise<void> {
  await get(edge, page);
  const hit = await get(edge, page);
  if (hit.status !== 200 || hit.headers['x-prerender-cache'] !== 'hit') throw new Error(`${edge.adapter}: expected a 200 hit of ${page}, got ${hit.status} ${hit.headers['x-prerender-cache']}`);
}

async function loadHits(edge: Edge): Promise<{ rps: number; p99: number }> {
  await warm(edge, PAGE);
  await wrk(`${edge.url}/${PAGE}`, botHeaders, 100, 2);
  const measured = await wrk(`${edge.url}/${PAGE}`, botHeaders, 100, 5);
  if (measured.bad > 0) throw new Error(`${edge.adapter} hits: ${measured.bad} errors`);
  return measured;
}

const coldPage = (n: number) => `https://www.example.com/cold/${n}`;

/** One pass over the cold pages, in order, over one kept-alive connection: each a hit whose body is out of the 1 MB body cache. */
async function coldPass(edge: Edge): Promise<number[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  try {
    for (let n = 0; n < N_COLD; n += 1) {
      const started = performance.now();
      const answer = await get(edge, coldPage(n), agent);
      times.push(performance.now() - started);
      if (answer.headers['x-prerender-cache'] !== 'hit') throw new Error(`${edge.adapter}: cold page ${n} was a ${answer.headers['x-prerender-cache']}`);
    }
  } finally {
    agent.destroy();
  }
  return times;
}

async function edgeRows(): Promise<BenchRow[]> {
  const origin = new TestOrigin(() => ({ status: 200, body: pageHtml() }));
  const originUrl = await origin.start();
  const [redis, kafka, s3] = await Promise.all([startRedis(), startKafkaMock(), startS3Server()]);
  const edges: Edge[] = [];
  try {
    const engines = { redis: redis.url, kafka: kafka.url.split(',') };
    edges.push(await startEdge('files', originUrl, engines, s3), await startEdge('s3', originUrl, engines, s3));
    const [files, onS3] = edges;
    const hits = { files: [] as { rps: number; p99: number }[], s3: [] as { rps: number; p99: number }[], ratios: [] as number[], p99Ratios: [] as number[], load: [] as string[] };
    for (let round = 0; round < ROUNDS; round += 1) {
      hits.load.push(loadAverage());
      const [f, s] = round % 2 === 0 ? [await loadHits(files), await loadHits(onS3)] : await loadHits(onS3).then(async (s) => [await loadHits(files), s] as const);
      hits.files.push(f);
      hits.s3.push(s);
      hits.ratios.push(s.rps / f.rps);
      hits.p99Ratios.push(s.p99 / f.p99);
    }
    for (const edge of edges) for (let n = 0; n < N_COLD; n += 1) await get(edge, coldPage(n));
    const cold = { files: [] as number[], s3: [] as number[], load: [] as string[] };
    for (let pass = 0; pass < COLD_PASSES; pass += 1) {
      cold.load.push(loadAverage());
      for (const edge of pass % 2 === 0 ? [files, onS3] : [onS3, files]) cold[edge.adapter].push(...(await coldPass(edge)));
    }
    const rpsRatio = median(hits.ratios);
    const p99Ratio = median(hits.p99Ratios);
    const fileRps = median(hits.files.map((h) => h.rps));
    const fileP99 = median(hits.files.map((h) => h.p99));
    const coldFiles = median(cold.files);
    const coldS3 = median(cold.s3);
    const p90 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.9)];
    return [
      {
        name: `edge hit, S3 adapter, warm body cache, 100 connections (median of ${ROUNDS} rounds; ratios ${hits.ratios.map((r) => r.toFixed(2)).join(' / ')}; load ${hits.load.join('/')})`,
        value: median(hits.s3.map((h) => h.rps)),
        unit: 'req/s',
        target: '>= 0.9 x files adapter',
        pass: rpsRatio >= 0.9,
        baseline: { name: 'files adapter', value: fileRps, unit: 'req/s' },
        ratio: rpsRatio,
      },
      {
        name: `edge hit p99, S3 adapter, warm body cache, 100 connections (ratios ${hits.p99Ratios.map((r) => r.toFixed(2)).join(' / ')})`,
        value: median(hits.s3.map((h) => h.p99)),
        unit: 'ms',
        target: '<= 1.5 x files adapter',
        pass: p99Ratio <= 1.5,
        baseline: { name: 'files adapter', value: fileP99, unit: 'ms' },
        ratio: p99Ratio,
      },
      {
        name: `edge cold hit p50, body read from the store (${N_COLD} pages x ${COLD_PASSES / 2} passes each, body_cache_mb 1, one kept-alive connection; p90 S3 ${p90(cold.s3).toFixed(2)} ms, files ${p90(cold.files).toFixed(2)} ms; load ${cold.load.join('/')})`,
        value: coldS3,
        unit: 'ms',
        target: '<= files adapter + 5 ms',
        pass: coldS3 <= coldFiles + 5,
        baseline: { name: 'files adapter', value: coldFiles, unit: 'ms' },
        ratio: coldS3 / coldFiles,
      },
    ];
  } finally {
    for (const edge of edges) {
      await stopService(edge.service);
      rmSync(edge.dataDir, { recursive: true, force: true });
    }
    await Promise.all([redis.stop(), kafka.stop(), s3.close(), origin.stop()]);
  }
}

function startExportApps(dir: string, adapter: Adapter, s3: { endpoint: string; bucket: string }): Promise<RunningApps> {
  return startApps([projectorApp, publicApiApp], exportsBenchConfig(dir, { adapters: { object_store: adapter }, ...(adapter === 's3' ? { s3: { endpoint: s3.endpoint, bucket: s3.bucket, prefix: 'exports-bench', force_path_style: true } } : {}) }), createLogger('warn', 'bench-object-store'));
}

interface ExportResult {
  readonly adapter: Adapter;
  readonly ms: number[];
  /** RSS growth of the first export of the process, then the worst of the later ones, MB. */
  readonly firstGrowthMb: number;
  readonly laterGrowthMb: number;
  readonly bytes: number;
}

/** In a fresh process: the apps on the filled data directory, one export (cold), then `EXPORT_ROUNDS` measured. */
async function exportChild(adapter: Adapter, dir: string, s3: { endpoint: string; bucket: string }): Promise<ExportResult> {
  const running = await startExportApps(dir, adapter, s3);
  try {
    const api = running.urls['public-api']!;
    const token = await issueBenchToken(api, 'manager');
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // Each export a question of its own: the same one asked again (same user, query and filename) is answered with the export already made.
    const tag = randomUUID().slice(0, 8);
    const exportOnce = async (name: string) => {
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
      const started = performance.now();
      try {
        const { sizeBytes } = await exportUntilCompleted(api, headers, { period: '90d', maxRows: EXPORT_ROWS, filename: `bench-${adapter}-${tag}-${name}`, waitSeconds: 30 }, EXPORT_ROWS);
        return { ms: performance.now() - started, growth: (Math.max(peak, process.memoryUsage().rss) - rssBefore) / MB, bytes: sizeBytes };
      } finally {
        clearInterval(sampler);
      }
    };
    const first = await exportOnce('first');
    const later = [];
    for (let round = 0; round < EXPORT_ROUNDS; round += 1) later.push(await exportOnce(String(round)));
    return { adapter, ms: later.map((l) => l.ms), firstGrowthMb: first.growth, laterGrowthMb: Math.max(...later.map((l) => l.growth)), bytes: first.bytes };
  } finally {
    await running.close();
  }
}

function exportInChild(adapter: Adapter, dir: string, s3: RunningS3Server): Promise<ExportResult> {
  return new Promise((resolve, reject) => {
    const child = fork(__filename, [EXPORT_CHILD, adapter, dir, s3.endpoint, s3.bucket], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], env: { ...process.env, ...s3Env(s3) } });
    let result: ExportResult | undefined;
    child.on('message', (message) => (result = message as ExportResult));
    child.on('error', reject);
    child.on('exit', (code) => (result && code === 0 ? resolve(result) : reject(new Error(`export child (${adapter}) exited with ${code}`))));
  });
}

async function exportRows(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-bench-object-store-'));
  const s3 = await startS3Server();
  try {
    const filling = await startExportApps(dir, 'files', s3);
    try {
      const store = filling.runtime.ports.explorerStore!;
      await store.command(botRequestsSql(Date.now(), TABLE_ROWS));
      await store.command('OPTIMIZE TABLE bot_requests FINAL');
    } finally {
      await filling.close();
    }
    const results: Record<Adapter, ExportResult[]> = { files: [], s3: [] };
    const load: string[] = [];
    for (let n = 0; n < EXPORT_CHILDREN; n += 1) {
      for (const adapter of n % 2 === 0 ? (['files', 's3'] as const) : (['s3', 'files'] as const)) {
        load.push(loadAverage());
        results[adapter].push(await exportInChild(adapter, dir, s3));
      }
    }
    const upload = await uploadAlone(dir, s3, results.s3[0].bytes);
    const ms = (adapter: Adapter) => median(results[adapter].flatMap((r) => r.ms));
    const worst = (adapter: Adapter, pick: (r: ExportResult) => number) => Math.max(...results[adapter].map(pick));
    const ratio = ms('s3') / ms('files');
    return [
      {
        name: `export to S3: ${EXPORT_ROWS.toLocaleString('en')} rows of ${TABLE_ROWS.toLocaleString('en')} (events explorer, 90 days, ${results.s3[0].bytes} B), HTTP until completed (median of ${EXPORT_CHILDREN * EXPORT_ROUNDS}, ${EXPORT_CHILDREN} processes per adapter alternating; load ${load.join('/')})`,
        value: ms('s3'),
        unit: 'ms',
        target: '<= 1.3 x files adapter',
        pass: ratio <= 1.3,
        baseline: { name: 'files adapter', value: ms('files'), unit: 'ms' },
        ratio,
      },
      {
        name: `export to S3, where the time goes: the upload alone, S3ObjectStore.uploadFile of a file of the same size to the same s3rver (median of ${UPLOADS}; s3rver's CPU meanwhile ${upload.s3rverCpuMs} ms, the uploading process's ${upload.ownCpuMs} ms; load ${upload.load})`,
        value: upload.ms,
        unit: 'ms',
        target: '',
        baseline: { name: 'export to S3 - export to files', value: ms('s3') - ms('files'), unit: 'ms' },
        ratio: upload.ms / (ms('s3') - ms('files')),
      },
      {
        name: `export to S3: RSS growth of the first export of a fresh process, worst of ${EXPORT_CHILDREN} (chDB in-process)`,
        value: worst('s3', (r) => r.firstGrowthMb),
        unit: 'MB',
        target: '<= 150 MB (as today)',
        pass: worst('s3', (r) => r.firstGrowthMb) <= 150,
        baseline: { name: 'files adapter', value: worst('files', (r) => r.firstGrowthMb), unit: 'MB' },
      },
      {
        name: `export to S3: RSS growth of a later export, worst of ${EXPORT_CHILDREN * EXPORT_ROUNDS}`,
        value: worst('s3', (r) => r.laterGrowthMb),
        unit: 'MB',
        target: '<= 150 MB (as today)',
        pass: worst('s3', (r) => r.laterGrowthMb) <= 150,
        baseline: { name: 'files adapter', value: worst('files', (r) => r.laterGrowthMb), unit: 'MB' },
      },
    ];
  } finally {
    await s3.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const UPLOADS = 3;

/** The S3 adapter's upload of a file of `bytes` to s3rver, alone: what an export to S3 adds to one to files. */
async function uploadAlone(dir: string, s3: RunningS3Server, bytes: number): Promise<{ ms: number; s3rverCpuMs: number; ownCpuMs: number; load: string }> {
  const source = path.join(dir, 'upload-source.csv');
  const line = 'https://www.example.com/some/page?with=query,2026-12-07 12:00:00,Googlebot,hit,200,12345\n';
  writeFileSync(source, line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes));
  const store = new S3ObjectStore({ bucket: s3.bucket, endpoint: s3.endpoint, forcePathStyle: true, prefix: 'upload-alone', credentials: s3.credentials });
  const s3rver = childPidsRunning(process.pid, 's3rver');
  const times: number[] = [];
  const s3rverCpu: number[] = [];
  const ownCpu: number[] = [];
  const load = loadAverage();
  for (let n = 0; n < UPLOADS; n += 1) {
    const file = path.join(dir, `upload-${n}.csv`);
    copyFileSync(source, file);
    const cpuBefore = s3rver.reduce((sum, pid) => sum + treeCpuMs(pid), 0);
    const own = process.cpuUsage();
    const started = performance.now();
    await store.uploadFile(`upload-${n}.csv`, file, { contentType: 'text/csv' });
    times.push(performance.now() - started);
    const used = process.cpuUsage(own);
    ownCpu.push((used.user + used.system) / 1000);
    s3rverCpu.push(s3rver.reduce((sum, pid) => sum + treeCpuMs(pid), 0) - cpuBefore);
  }
  return { ms: median(times), s3rverCpuMs: Math.round(median(s3rverCpu)), ownCpuMs: Math.round(median(ownCpu)), load };
}

/** `BENCH_OBJECT_STORE_PARTS=edge` or `=export` runs one half. */
const PARTS = (process.env.BENCH_OBJECT_STORE_PARTS ?? 'edge,export').split(',');

export const objectStoreBench: BenchSuite = {
  name: 'object-store',
  async run(): Promise<BenchRow[]> {
    const rows: BenchRow[] = [];
    if (PARTS.includes('edge')) rows.push(...(await edgeRows()));
    if (PARTS.includes('export')) rows.push(...(await exportRows()));
    return rows;
  },
};

// Forked by exportInChild: one process's exports, reported over IPC.
if (require.main === module && process.argv[2] === EXPORT_CHILD) {
  const [adapter, dir, endpoint, bucket] = process.argv.slice(3);
  exportChild(adapter as Adapter, dir, { endpoint, bucket }).then(
    (result) => process.send!(result, () => process.exit(0)),
    (error) => {
      console.error(`export child (${adapter}) failed:`, error);
      process.exit(1);
    },
  );
}
