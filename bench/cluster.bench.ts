import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import { sha256Hex } from '@bpc/domain';
import { startKafkaMock, startRedis, type RunningEngine } from '../test/harness/engines';
import { rawRequest } from '../test/harness/http';
import { metricValue } from '../test/harness/metrics';
import { startClickhouseServer } from '../test/harness/clickhouse-server';
import { ReplicatedCluster, type ClusterApp, type SharedClusterEngines } from '../test/harness/replicated-cluster';
import { startS3Server } from '../test/harness/s3-server';
import { TEST_INTERNAL_KEY } from '../test/harness/test-config';
import { TestOrigin } from '../test/harness/test-origin';
import { until } from '../test/harness/until';
import type { BenchRow, BenchSuite } from './bench-row';
import { childPidsRunning, loadAverage, machineBusyMs, treeCpuMs } from './bench-processes';
import { delta, snapshot, startCountingProxy, totals, type Engines } from './engine-counters';
import { PAGE_COUNT } from './render-pages';
import { median } from './stats';
import { wrk, type WrkResult } from './wrk';

/**
 * Issue 45 §4, cluster figures for the capacity plan, on this two-core
 * machine, every app built (`dist/`) and a process of its own, on one Redis,
 * the Kafka mock, the ClickHouse stand-in and s3rver (behind a counting
 * proxy), all started here:
 *
 * - edge hits with two edge replicas against one (edges alone, as the
 *   edge bench's cluster rows): one wrk at 100 connections on one edge,
 *   against two wrk at 50 on each of two, rounds alternating; the CPU each
 *   process used meanwhile says what caps it;
 * - renders: `RENDERS` pages of the render bench's origin recached through
 *   two daemons, then through one (the other stopped), time until every one
 *   is stored (`bpc_recache_attempts_total{outcome="stored"}`);
 * - per-request engine costs, read from the engines (topic contents, INFO
 *   commandstats, `system.tables`, the proxy's counts), an idle window's
 *   background subtracted: a hit, a bypass miss stored, a render stored;
 *   Redis memory per stored page after `ENTRIES` distinct pages.
 */

const TOKEN = { demo: 'bench-cluster-token-demo', shop: 'bench-cluster-token-shop' };
const bot = (token: string) => ({ 'x-prerender-token': token, 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'accept-encoding': 'gzip, deflate, br' });
const SHOP = 'https://shop.example.org';
const HIT_PAGE = `${SHOP}/pricing?plan=pro`;
const ROUNDS = Number(process.env.BENCH_CLUSTER_ROUNDS ?? 3);
const RENDERS = Number(process.env.BENCH_CLUSTER_RENDERS ?? 40);
const HITS = 2_000;
const ENTRIES = Number(process.env.BENCH_CLUSTER_ENTRIES ?? 20_000);
const IDLE_MS = 5_000;
const INTERNAL = { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' };

/** ~40 KB of HTML (the edge bench's page). */
function pageHtml(): string {
  const items = Array.from({ length: 300 }, (_, i) => `<li class="plan-item"><a href="/pricing/item-${i}">Feature ${i}: unlimited seats, audit log ${i % 7}</a></li>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pricing — Example</title></head><body><main><h1>Pricing</h1><ul>${items}</ul></main></body></html>`;
}

/** The render bench's origin (pages with images, CSS, a script and an API call), a child process. */
async function startRenderOrigin(): Promise<{ url: string; child: ChildProcess }> {
  const child = fork(path.join(__dirname, 'render-origin.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { url: string }).url));
    child.once('exit', (code) => reject(new Error(`render origin exited with ${code}`)));
  });
  return { url, child };
}

function clusterConfig(originUrl: string, renderOriginUrl: string): Record<string, unknown> {
  return {
    logging: { level: 'warn' },
    rate_limit: { enabled: false },
    hosts: [
      { host_id: 1, hostnames: ['www.example.com'], origin: renderOriginUrl, dimensions: [{ id: 1, name: 'desktop', action: 'render' }] },
      { host_id: 2, hostnames: ['shop.example.org'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', action: 'bypass' }] },
    ],
    websites: [
      { id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN.demo) },
      { id: 'shop', host_id: 2, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN.shop) },
    ],
    // The per-host limit across daemons high enough that the daemons' tabs are what bounds renders.
    recache: { max_concurrent: 16 },
    scheduler: { tick_ms: 200 },
  };
}

/** `bpc_edge_...`: the cluster's Kafka namespace, read from its configuration file. */
function namespaceOf(cluster: ReplicatedCluster): string {
  return (JSON.parse(readFileSync(cluster.configFile, 'utf8')) as { kafka: { namespace: string } }).kafka.namespace;
}

/** CPU (ms) of named process trees, read before and after `fn`, as cores used over its wall time. */
async function coresUsed<T>(pids: Record<string, number[]>, fn: () => Promise<T>): Promise<{ result: T; cores: Record<string, number>; ms: number }> {
  const read = () => Object.fromEntries(Object.entries(pids).map(([name, list]) => [name, list.reduce((sum, pid) => sum + treeCpuMs(pid), 0)]));
  const children = () => {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) * 10;
  };
  const before = read();
  const ownBefore = process.cpuUsage();
  const reapedBefore = children();
  const machineBefore = machineBusyMs();
  const started = performance.now();
  const result = await fn();
  const ms = performance.now() - started;
  const after = read();
  const own = process.cpuUsage(ownBefore);
  const cores: Record<string, number> = Object.fromEntries(Object.keys(pids).map((name) => [name, (after[name] - before[name]) / ms]));
  cores['bench process (proxy, load generator in-process)'] = (own.user + own.system) / 1000 / ms;
  cores['exited children (wrk)'] = (children() - reapedBefore) / ms;
  cores['machine, every process'] = (machineBusyMs() - machineBefore) / ms;
  return { result, cores, ms };
}

const formatCores = (cores: Record<string, number>) =>
  Object.entries(cores)
    .map(([name, n]) => `${name} ${n.toFixed(2)}`)
    .join(', ');

async function hitLoad(edges: readonly string[], connections: number, seconds: number): Promise<WrkResult[]> {
  return Promise.all(edges.map((edge) => wrk(`${edge}/${HIT_PAGE}`, bot(TOKEN.shop), connections, seconds)));
}

async function warmHit(edge: string, page = HIT_PAGE): Promise<void> {
  await rawRequest(edge, `/${page}`, { headers: bot(TOKEN.shop) });
  const hit = await rawRequest(edge, `/${page}`, { headers: bot(TOKEN.shop) });
  if (hit.status !== 200 || hit.headers['x-prerender-cache'] !== 'hit') throw new Error(`expected a hit of ${page} from ${edge}, got ${hit.status} ${hit.headers['x-prerender-cache']}`);
}

/** Two edge replicas against one, edges alone on the engines. */
async function edgeScaling(shared: SharedClusterEngines, config: Record<string, unknown>, engines: { redis: RunningEngine; kafka: RunningEngine }): Promise<BenchRow[]> {
  const cluster = await ReplicatedCluster.start({ engines: shared, config, replicas: 2, apps: ['edge'], built: true });
  try {
    const edges = cluster.replicas('edge').map((r) => r.url);
    for (const edge of edges) await warmHit(edge);
    const pids = { 'edge#0': [cluster.replica('edge', 0).service.child.pid!], 'edge#1': [cluster.replica('edge', 1).service.child.pid!], redis: [engines.redis.pid], kafka: [engines.kafka.pid], s3rver: childPidsRunning(process.pid, 's3rver') };
    const one: { rps: number; p99: number; cores: Record<string, number> }[] = [];
    const two: { rps: number; p99: number; cores: Record<string, number> }[] = [];
    const load: string[] = [];
    const measureOne = async () => {
      await hitLoad([edges[0]], 100, 2);
      const { result, cores } = await coresUsed(pids, () => hitLoad([edges[0]], 100, 5));
      if (result[0].bad > 0) throw new Error(`one edge: ${result[0].bad} errors`);
      one.push({ rps: result[0].rps, p99: result[0].p99, cores });
    };
    const measureTwo = async () => {
      await hitLoad(edges, 50, 2);
      const { result, cores } = await coresUsed(pids, () => hitLoad(edges, 50, 5));
      if (result.some((r) => r.bad > 0)) throw new Error('two edges: errors');
      two.push({ rps: result[0].rps + result[1].rps, p99: Math.max(result[0].p99, result[1].p99), cores });
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      load.push(loadAverage());
      if (round % 2 === 0) {
        await measureOne();
        await measureTwo();
      } else {
        await measureTwo();
        await measureOne();
      }
    }
    const ratios = two.map((t, i) => t.rps / one[i].rps);
    const medianCores = (runs: typeof one) => Object.fromEntries(Object.keys(runs[0].cores).map((name) => [name, median(runs.map((r) => r.cores[name]))]));
    return [
      { name: `cluster: edge hits, ONE edge replica, wrk 100 connections (median of ${ROUNDS}; load ${load.join('/')}); cores used: ${formatCores(medianCores(one))}`, value: median(one.map((r) => r.rps)), unit: 'req/s', target: '' },
      { name: `cluster: edge hits p99, one edge replica`, value: median(one.map((r) => r.p99)), unit: 'ms', target: '' },
      {
        name: `cluster: edge hits, TWO edge replicas, wrk 50 connections on each (ratios ${ratios.map((r) => r.toFixed(2)).join(' / ')}); cores used: ${formatCores(medianCores(two))}`,
        value: median(two.map((r) => r.rps)),
        unit: 'req/s',
        target: '',
        baseline: { name: 'one edge replica', value: median(one.map((r) => r.rps)), unit: 'req/s' },
        ratio: median(ratios),
      },
      { name: `cluster: edge hits p99, two edge replicas (the worse of the two)`, value: median(two.map((r) => r.p99)), unit: 'ms', target: '' },
    ];
  } finally {
    await cluster.stop();
  }
}

const storedBy = async (daemon: string, outcome = 'stored') => metricValue(await (await fetch(`${daemon}/metrics`)).text(), `bpc_recache_attempts_total{outcome="${outcome}"}`);

/** Recaches `RENDERS` pages split across `daemons` and waits until they have stored them all; ms from the first POST. */
async function renderRun(daemons: readonly string[], tag: string, count = RENDERS): Promise<number> {
  const urls = Array.from({ length: count }, (_, i) => `https://www.example.com/p/${i % PAGE_COUNT}?run=${tag}`);
  const before = await Promise.all(daemons.map((d) => storedBy(d)));
  const failedBefore = await Promise.all(daemons.map((d) => storedBy(d, 'failed')));
  const started = performance.now();
  await Promise.all(
    daemons.map(async (daemon, i) => {
      const share = urls.filter((_, n) => n % daemons.length === i);
      const answer = await fetch(`${daemon}/internal/cache/recache`, { method: 'POST', headers: INTERNAL, body: JSON.stringify({ host_id: 1, urls: share, priority: 'normal' }) });
      if (!answer.ok) throw new Error(`recache through ${daemon}: ${answer.status} ${await answer.text()}`);
    }),
  );
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  await until(
    async () => {
      const failed = sum(await Promise.all(daemons.map((d) => storedBy(d, 'failed')))) - sum(failedBefore);
      if (failed > 0) throw new Error(`${failed} renders failed`);
      return sum(await Promise.all(daemons.map((d) => storedBy(d)))) - sum(before);
    },
    (stored) => stored >= count,
    { timeoutMs: 600_000, intervalMs: 100, what: `${count} renders stored (${tag})` },
  );
  return performance.now() - started;
}

/** Engine counters over `fn`, less what the same engines did in an idle window just before (scaled to `fn`'s duration). */
async function costOf(engines: Engines, fn: () => Promise<void>): Promise<{ total: Record<string, number>; detail: Record<string, number>; ms: number }> {
  const idleStart = await snapshot(engines);
  const idleStarted = performance.now();
  await new Promise((r) => setTimeout(r, IDLE_MS));
  const idleEnd = await snapshot(engines);
  const idle = delta(idleEnd, idleStart);
  const idleMs = performance.now() - idleStarted;
  const started = performance.now();
  await fn();
  const ms = performance.now() - started;
  const busy = delta(await snapshot(engines), idleEnd);
  const detail = Object.fromEntries(Object.entries(busy).map(([key, n]) => [key, key === 'redis.used_memory' || key === 'redis.keys' ? n : n - ((idle[key] ?? 0) * ms) / idleMs]));
  return { total: totals(detail), detail, ms };
}

const per = (n: number, count: number) => Math.round((n / count) * 100) / 100;

function costRows(what: string, count: number, cost: { total: Record<string, number>; detail: Record<string, number> }): BenchRow[] {
  const t = cost.total;
  const topBy = (prefix: string, suffix = '') =>
    Object.entries(cost.detail)
      .filter(([k, v]) => k.startsWith(prefix) && k.endsWith(suffix) && k !== 'redis.used_memory' && k !== 'redis.keys' && v / count >= 0.05)
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k.slice(prefix.length, k.length - suffix.length)} ${per(v, count)}`)
      .join(', ');
  return [
    { name: `cost per ${what}: Kafka messages appended (${topBy('kafka.', '.messages')})`, value: t.kafkaMessages / count, unit: 'messages', target: '' },
    { name: `cost per ${what}: Kafka bytes appended, keys + values`, value: t.kafkaBytes / count, unit: 'B', target: '' },
    { name: `cost per ${what}: Redis commands (${topBy('redis.')})`, value: t.redisCommands / count, unit: 'commands', target: '' },
    { name: `cost per ${what}: ClickHouse rows inserted (${topBy('clickhouse.')})`, value: t.clickhouseRows / count, unit: 'rows', target: '' },
    { name: `cost per ${what}: object store requests (GET ${per(t.s3Get, count)}, PUT ${per(t.s3Put, count)}, HEAD ${per(t.s3Head, count)}, POST ${per(t.s3Post, count)}, DELETE ${per(t.s3Delete, count)}; ${Math.round(t.s3BytesUp / count)} B up, ${Math.round(t.s3BytesDown / count)} B down)`, value: (t.s3Get + t.s3Put + t.s3Head + t.s3Post + t.s3Delete) / count, unit: 'requests', target: '' },
  ];
}

/** Every app, two replicas each: renders through two daemons then one; per-request costs; Redis memory per page. */
async function fullCluster(shared: SharedClusterEngines, config: Record<string, unknown>, engines: Omit<Engines, 'namespace'>, pidsOfEngines: Record<string, number[]>): Promise<BenchRow[]> {
  const cluster = await ReplicatedCluster.start({ engines: shared, config, replicas: 2, built: true });
  const rows: BenchRow[] = [];
  try {
    const counted: Engines = { ...engines, namespace: namespaceOf(cluster) };
    const url = (app: ClusterApp, i: number) => cluster.replica(app, i).url;
    const pidsOf = (app: ClusterApp) => cluster.replicas(app).map((r) => r.service.child.pid!);
    const pids = { daemons: pidsOf('daemon'), projectors: pidsOf('projector'), 'public-api': pidsOf('public-api'), edges: pidsOf('edge'), ...pidsOfEngines };
    const daemons = [url('daemon', 0), url('daemon', 1)];

    // Chromium started and warm in both daemons before anything is timed.
    await renderRun(daemons, 'warm-up', 8);
    const loadTwo = loadAverage();
    const twoRun = await coresUsed(pids, () => renderRun(daemons, 'two'));
    await cluster.kill('daemon', 1, 'SIGTERM');
    const loadOne = loadAverage();
    let oneMs = 0;
    let oneCores: Record<string, number> = {};
    const renderCost = await costOf(counted, async () => {
      const measured = await coresUsed({ ...pids, daemons: [pidsOf('daemon')[0]] }, () => renderRun([daemons[0]], 'one'));
      oneMs = measured.result;
      oneCores = measured.cores;
      // Their outcomes projected too.
      await until(async () => (await snapshot(counted)).clickhouse.render_outcomes ?? 0, (n) => n >= 8 + 2 * RENDERS, { timeoutMs: 60_000, intervalMs: 200, what: 'render outcomes projected' }).catch(() => undefined);
    });
    const rate = (ms: number) => (RENDERS / ms) * 1000;
    rows.push(
      { name: `cluster: renders, ONE daemon (4 tabs, 3 for recache), ${RENDERS} pages of the render bench recached until stored (load ${loadOne}); cores used: ${formatCores(oneCores)}`, value: rate(oneMs), unit: 'renders/s', target: '' },
      {
        name: `cluster: renders, TWO daemons (4 tabs each, 3 for recache), ${RENDERS} pages split between them (load ${loadTwo}); cores used: ${formatCores(twoRun.cores)}`,
        value: rate(twoRun.result),
        unit: 'renders/s',
        target: '',
        baseline: { name: 'one daemon', value: rate(oneMs), unit: 'renders/s' },
        ratio: rate(twoRun.result) / rate(oneMs),
      },
      ...costRows('render stored (one daemon)', RENDERS, renderCost),
    );

    // A hit: a warm page, HITS requests at edge 0, until every one is in ClickHouse.
    const edge = url('edge', 0);
    await warmHit(edge);
    const rowsNow = async () => (await snapshot(counted)).clickhouse.bot_requests ?? 0;
    const hitCost = await costOf(counted, async () => {
      const before = await rowsNow();
      const result = await autocannon({ url: `${edge}/${HIT_PAGE}`, headers: bot(TOKEN.shop), connections: 10, amount: HITS });
      if (result['2xx'] !== HITS) throw new Error(`hits: ${result['2xx']} of ${HITS} answered 2xx`);
      await until(rowsNow, (n) => n >= before + HITS, { timeoutMs: 120_000, intervalMs: 200, what: 'every hit in ClickHouse' });
    });
    rows.push(...costRows('bot request served as a hit (warm body cache)', HITS, hitCost));

    // A cold hit: the page stored through edge 0, first asked for at edge 1 (its body cache never saw it).
    const coldPage = `${SHOP}/cold-${randomUUID()}`;
    await rawRequest(edge, `/${coldPage}`, { headers: bot(TOKEN.shop) });
    const getsBefore = counted.s3.counts.GET ?? 0;
    const cold = await rawRequest(url('edge', 1), `/${coldPage}`, { headers: bot(TOKEN.shop) });
    if (cold.headers['x-prerender-cache'] !== 'hit') throw new Error(`cold hit at edge 1: ${cold.headers['x-prerender-cache']}`);
    rows.push({ name: 'cost per cold hit (body not in that edge’s memory): object store GETs', value: (counted.s3.counts.GET ?? 0) - getsBefore, unit: 'GETs', target: '' });

    // ENTRIES distinct pages stored (bypass misses, half at each edge), until every request is in ClickHouse: Redis memory per page, and a miss's costs.
    let next = 0;
    const before = await rowsNow();
    const projectorCpuBefore = pidsOf('projector').reduce((s, pid) => s + treeCpuMs(pid), 0);
    const entryCost = await costOf(counted, async () => {
      const halves = [0, 1].map((i) =>
        autocannon({
          url: url('edge', i),
          headers: bot(TOKEN.shop),
          connections: 10,
          amount: ENTRIES / 2,
          requests: [{ setupRequest: (request) => ({ ...request, path: `/${SHOP}/entry/${(next += 1)}` }) }],
        }),
      );
      const results = await Promise.all(halves);
      const answered = results.reduce((s, r) => s + r['2xx'], 0);
      if (answered !== ENTRIES) throw new Error(`entries: ${answered} of ${ENTRIES} answered 2xx`);
      await until(rowsNow, (n) => n >= before + ENTRIES, { timeoutMs: 300_000, intervalMs: 500, what: 'every miss in ClickHouse' });
    });
    const projectorCpuMs = pidsOf('projector').reduce((s, pid) => s + treeCpuMs(pid), 0) - projectorCpuBefore;
    const memory = entryCost.detail['redis.used_memory'];
    rows.push(
      ...costRows('bypass miss stored (origin fetch, body PUT, entry)', ENTRIES, entryCost),
      { name: `Redis memory per 1,000,000 stored pages (INFO used_memory delta over ${ENTRIES.toLocaleString('en')} pages, extrapolated; ${per(entryCost.detail['redis.keys'], ENTRIES)} keys per page)`, value: (memory / ENTRIES) * 1_000_000 / 1024 / 1024, unit: 'MB', target: '' },
      { name: `projector: bot requests projected per second per core (two projectors' CPU over ${ENTRIES.toLocaleString('en')} misses and ${HITS} hits' window: Kafka consume, ClickHouse stand-in inserts over HTTP, queue projection into Redis)`, value: (ENTRIES / projectorCpuMs) * 1000, unit: 'events/s/core', target: '' },
    );
    return rows;
  } finally {
    await cluster.stop();
  }
}

export const clusterBench: BenchSuite = {
  name: 'cluster',
  async run(): Promise<BenchRow[]> {
    const origin = new TestOrigin(() => ({ status: 200, body: pageHtml() }));
    const originUrl = await origin.start();
    const renderOrigin = await startRenderOrigin();
    const [redis, kafka, clickhouse, s3] = await Promise.all([startRedis(), startKafkaMock(), startClickhouseServer(), startS3Server()]);
    const proxy = await startCountingProxy(s3.endpoint);
    try {
      const database = await clickhouse.createDatabase(`cluster_bench_${randomUUID().slice(0, 8)}`);
      const shared = (endpoint: string): SharedClusterEngines => ({
        kafkaBrokers: kafka.url.split(','),
        redisUrl: redis.url,
        clickhouse: { url: clickhouse.url, database },
        s3: { endpoint, bucket: s3.bucket, accessKeyId: s3.credentials.accessKeyId, secretAccessKey: s3.credentials.secretAccessKey },
      });
      const config = clusterConfig(originUrl, renderOrigin.url);
      const parts = (process.env.BENCH_CLUSTER_PARTS ?? 'edge,full').split(',');
      const rows: BenchRow[] = [];
      if (parts.includes('edge')) rows.push(...(await edgeScaling(shared(s3.endpoint), config, { redis, kafka })));
      if (parts.includes('full')) {
        const engines = { kafkaBrokers: kafka.url, redisUrl: redis.url, clickhouse: { url: clickhouse.url, database }, s3: proxy };
        rows.push(...(await fullCluster(shared(proxy.endpoint), config, engines, { redis: [redis.pid], kafka: [kafka.pid], clickhouse: [clickhouse.pid], s3rver: childPidsRunning(process.pid, 's3rver'), 'render origin': [renderOrigin.child.pid!] })));
      }
      return rows;
    } finally {
      await proxy.close();
      renderOrigin.child.kill('SIGTERM');
      await Promise.all([redis.stop(), kafka.stop(), clickhouse.stop(), s3.close(), origin.stop()]);
    }
  },
};
