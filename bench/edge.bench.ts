import { execFile } from 'node:child_process';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import autocannon from 'autocannon';
import { countTokens } from 'gpt-tokenizer';
import type { AppConfig } from '@bpc/config';
import { sha256Hex } from '@bpc/domain';
import { renderMarkdown } from '@bpc/renderer';
import { caughtUpWithin } from '@bpc/support';
import { RunningEngine, startKafkaMock, startRedis } from '../test/harness/engines';
import { RawAnswer, rawRequest } from '../test/harness/http';
import { metricValue } from '../test/harness/metrics';
import { spawnNode, waitUntilAnswers } from '../test/harness/spawned-service';
import { bypassHost, testConfig } from '../test/harness/test-config';
import { TestOrigin } from '../test/harness/test-origin';
import type { BenchRow, BenchSuite } from './bench-row';
import { pageHtml as productPageHtml } from './render-pages';
import { median } from './stats';
import { wrk, WrkResult } from './wrk';

/**
 * Issue 6's edge targets, side by side in one run with one load generator
 * (wrk, one thread, 100 connections, in a process of its own; 3 s warm-up,
 * then 5 s measured; see `wrk` for why not autocannon):
 *
 * - a plain `node:http` server sending exactly the bytes the edge sends for
 *   a cache hit (same status, headers and gzipped body, captured from the edge);
 * - the edge serving that hit with recording on, and with
 *   `edge.record_requests: false`, each edge in a process of its own (see
 *   `withEdge`; in standalone all the apps, as `npm start` runs them: the
 *   projector writing the recorded requests to chDB shares the process, so
 *   "recording on" includes that cost; at saturation the projection pauses
 *   after the first second, and its work
 *   moves to the catch-up after the load, which its rows report, and which
 *   the CPU rows count);
 * - 100 concurrent misses of one URL, counted at the origin;
 * - Markdown for agents (issue 44): a Markdown hit (already converted)
 *   against an HTML hit of the same render, in one standalone edge, rounds
 *   alternating their order; conversion time and tokens on the bench pages
 *   (`BENCH_EDGE_MARKDOWN_ONLY=1` runs these rows alone).
 *
 * The host's speed drifts during a run (by up to a factor of two here), so
 * each mode runs `ROUNDS` rounds of plain, on and off measured next to each
 * other (see `measureMode`), and reports medians: each ratio is the median
 * of the rounds' own ratios.
 *
 * Saturated throughput moves with the host's speed from one phase to the
 * next, so each mode also measures the CPU time the edge's process spends
 * per request (every thread: serving and recording, in standalone the
 * projector and chDB, garbage collection) at a fixed rate below saturation,
 * recording on against off (autocannon's fixed rate, in a process of its
 * own: wrk has no fixed rate), and in standalone the explorer's catch-up
 * after the load counts as recording's.
 *
 * Cluster rows run the edge app alone on Kafka (librdkafka's mock broker via
 * kcat) and Redis, both started on this machine: their CPU, and that of the
 * edge's recording (its kafkajs producer), is taken from the same
 * cores as the load generator's, as is the projector's and chDB's in the
 * standalone process.
 */

const TOKEN = 'bench-prerender-token';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const PAGE = 'https://www.example.com/pricing?plan=pro';
const CONNECTIONS = 100;
/**
 * Long enough for a freshly started edge to reach its steady state: with
 * recording on, its first appends and, in standalone, the explorer rows
 * worker start, and the projection's first inserts run, in its first
 * second under load.
 */
const WARMUP_S = 3;
const MEASURE_S = 5;
/**
 * Rounds per mode: the host's speed drifts. One run's rounds of the same
 * code lost −42 % to +41 % to recording (a standard deviation of 18 points;
 * 3 on a quiet host), with the CPU the serving thread is not on 30–60 % idle
 * either way: the serving thread itself ran slower or faster. With that
 * spread the median's standard error is about 6 points over fifteen rounds,
 * 7 over nine. `BENCH_EDGE_ROUNDS` sets fewer for paired A/B runs of two
 * builds, which alternate whole runs instead.
 */
const ROUNDS = Number(process.env.BENCH_EDGE_ROUNDS ?? 15);
/** The modes measured, comma-separated (`BENCH_EDGE_MODES=standalone` for a paired A/B of a standalone-only change); both by default. */
const MODES = (process.env.BENCH_EDGE_MODES ?? 'standalone,cluster').split(',');
const botHeaders = { 'x-prerender-token': TOKEN, 'user-agent': GOOGLEBOT, 'accept-encoding': 'gzip, deflate, br' };

/** A pre-rendered page of realistic size (~40 KB of HTML, ~5 KB gzipped). */
function pageHtml(): string {
  const items = Array.from({ length: 300 }, (_, i) => `<li class="plan-item"><a href="/pricing/item-${i}">Feature ${i}: unlimited seats, audit log ${i % 7}</a></li>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pricing — Example</title></head><body><main><h1>Pricing</h1><ul>${items}</ul></main></body></html>`;
}

/** A measured run: wrk's figures, once its errors were checked. */
type Measured = Omit<WrkResult, 'bad'>;

/** One measurement with wrk: warm-up (discarded), then the measured run; fails on any socket error or non-2xx answer. */
async function load(url: string, headers: Record<string, string>, what: string): Promise<Measured> {
  await wrk(url, headers, CONNECTIONS, WARMUP_S);
  const result = await wrk(url, headers, CONNECTIONS, MEASURE_S);
  if (result.bad > 0) throw new Error(`${what}: ${result.bad} socket errors or non-2xx answers`);
  return result;
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function close(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** `count` free ports, all different: each is held until every one is taken (ports asked for one after the other can repeat on a busy machine). */
async function distinctFreePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map(close));
  return ports;
}

interface Engines {
  readonly redis: RunningEngine;
  readonly kafka: RunningEngine;
}

function config(originUrl: string, recordRequests: boolean, engines?: Engines): AppConfig {
  return testConfig(
    engines ? 'cluster' : 'standalone',
    {
      logging: { level: 'silent' },
      rate_limit: { enabled: false },
      edge: { record_requests: recordRequests },
      // Pages under /agents/ are rendered (Chromium), for the Markdown rows: Markdown is made of renders only.
      hosts: [{ ...bypassHost(originUrl), url_rules: [{ pattern: '^/agents/', action: 'render' }] }],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) }],
    },
    engines && { kafkaBrokers: engines.kafka.url.split(','), redisUrl: engines.redis.url },
  );
}

/** The V8 flags `npm start` runs the apps with. */
const APP_NODE_FLAGS = ['--max-semi-space-size=32', '--initial-old-space-size=256'];
/** Longest an edge process may take to report itself ready. */
const START_LIMIT_MS = 60_000;

/** An edge under measurement: its URLs and its process (whose CPU the CPU rows read). */
interface EdgeProcess {
  readonly edge: string;
  /** Standalone: the projector app's URL (its metrics give the explorer's lag). */
  readonly projector?: string;
  readonly pid: number;
}

/**
 * Each edge runs in a process of its own, as `npm start` runs the apps
 * (`dist/apps/<app>/src/main.js`, same V8 flags), started fresh for each
 * measurement and stopped with SIGTERM after it. Standalone: every app (the
 * file log and memory queue store need the projector beside them).
 * Cluster: the edge app alone, on Kafka (librdkafka mock) and Redis, as a
 * deployed edge replica. In the bench's own process, an edge could leave
 * what it had started behind for the next one measured (garbage, the
 * embedded ClickHouse's background work after the explorer's catch-up).
 */
async function withEdge<T>(originUrl: string, recordRequests: boolean, engines: Engines | undefined, run: (edge: EdgeProcess) => Promise<T>): Promise<T> {
  const cfg = config(originUrl, recordRequests, engines);
  const ports = await distinctFreePorts(4);
  const listen = { host: '127.0.0.1', public_api: ports[0], daemon: ports[1], edge: ports[2], projector: ports[3] };
  const file = path.join(cfg.data_dir, 'bench-config.json');
  writeFileSync(file, JSON.stringify({ ...cfg, listen }));
  const main = path.join(__dirname, '..', 'apps', engines ? 'edge' : 'standalone', 'src', 'main.js');
  const service = spawnNode([...APP_NODE_FLAGS, main], { BPC_CONFIG: file });
  try {
    const edge = `http://127.0.0.1:${listen.edge}`;
    await waitUntilAnswers(`${edge}/health/ready`, {}, START_LIMIT_MS, service);
    return await run({ edge, projector: engines ? undefined : `http://127.0.0.1:${listen.projector}`, pid: service.child.pid! });
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    rmSync(cfg.data_dir, { recursive: true, force: true });
  }
}

/** CPU time a process has used so far (every thread), in µs (Linux: `/proc/<pid>/stat`, in clock ticks of 10 ms). */
function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Warms the entry (one origin fetch), checks the next answer is a hit, and returns it. */
async function warm(edge: string): Promise<RawAnswer> {
  await rawRequest(edge, `/${PAGE}`, { headers: botHeaders });
  const hit = await rawRequest(edge, `/${PAGE}`, { headers: botHeaders });
  if (hit.status !== 200 || hit.headers['x-prerender-cache'] !== 'hit') throw new Error(`warm-up: expected a 200 hit, got ${hit.status} ${hit.headers['x-prerender-cache']}`);
  return hit;
}

/** The edge's answer replayed by a bare `node:http` server: same status, same headers (request id fixed), same bytes. */
function plainServer(answer: RawAnswer): Server {
  const hopByHop = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
  const headers = Object.fromEntries(Object.entries(answer.headers).filter(([k, v]) => !hopByHop.has(k) && typeof v === 'string'));
  return createServer((_req, res) => {
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  });
}

/** Plain node:http replaying `sample`, measured like the edge. */
async function measurePlain(sample: RawAnswer): Promise<Measured> {
  const server = plainServer(sample);
  const plainUrl = await listen(server);
  try {
    return await load(`${plainUrl}/${PAGE}`, botHeaders, 'plain node:http');
  } finally {
    await close(server);
  }
}

interface EdgeRun {
  readonly load: Measured;
  /** `bpc_edge_recorded_total` + `bpc_edge_record_buffer_size` after the run. */
  readonly recorded: number;
  /** Standalone, recording on: the explorer's lag when the measurement ended, and how long it took to reach 0 after it. */
  readonly explorer?: { readonly lag: number; readonly caughtUpMs: number };
}

/** Longest the bench waits for the explorer to catch up after a round. */
const CATCH_UP_LIMIT_MS = 60_000;

/**
 * Standalone: the explorer projection gives way to saturated serving (it
 * pauses for up to `edge.projection_pause_max_ms`, and its inserts run at the
 * lowest priority), so under this load it falls behind; this reads its lag
 * (`bpc_explorer_projection_lag_events`) when the measurement ends and how
 * long it then takes to reach 0.
 */
async function explorerCatchUp(projector: string): Promise<{ lag: number; caughtUpMs: number }> {
  const lagNow = async () => metricValue(await (await fetch(`${projector}/metrics`)).text(), 'bpc_explorer_projection_lag_events');
  const started = performance.now();
  const lag = await lagNow();
  // Polled every 50 ms: each poll renders the projector's metrics, in the process whose CPU the CPU rows count.
  if (!(await caughtUpWithin(lagNow, CATCH_UP_LIMIT_MS, undefined, 50))) throw new Error(`the explorer did not catch up within ${CATCH_UP_LIMIT_MS} ms after the load (${await lagNow()} events behind)`);
  return { lag, caughtUpMs: performance.now() - started };
}

/** Warms the entry and measures hits. */
async function measureEdge(originUrl: string, record: boolean, engines: Engines | undefined): Promise<EdgeRun> {
  return withEdge(originUrl, record, engines, async ({ edge, projector }) => {
    await warm(edge);
    const measured = await load(`${edge}/${PAGE}`, botHeaders, `edge hit (${engines ? 'cluster' : 'standalone'}, recording ${record ? 'on' : 'off'})`);
    const metrics = await (await fetch(`${edge}/metrics`)).text();
    const recorded = metricValue(metrics, 'bpc_edge_recorded_total') + metricValue(metrics, 'bpc_edge_record_buffer_size');
    if (!record && recorded !== 0) throw new Error(`edge.record_requests: false still recorded ${recorded} requests`);
    const explorer = record && projector ? await explorerCatchUp(projector) : undefined;
    return { load: measured, recorded, explorer };
  });
}

/** The fixed rate of the CPU rows, as a share of the mode's recording-off throughput: low enough that both edges keep up. */
const CPU_RATE_SHARE = 0.4;

/** autocannon at a fixed overall rate, in a process of its own (its CPU is not this process's). */
function loadFromChild(url: string, rate: number, seconds: number): Promise<{ requests: number; bad: number }> {
  const cli = require.resolve('autocannon/autocannon.js');
  const headerArgs = Object.entries(botHeaders).flatMap(([name, value]) => ['-H', `${name}=${value}`]);
  const args = [cli, '--json', '-c', String(CONNECTIONS), '-d', String(seconds), '-R', String(Math.round(rate)), ...headerArgs, url];
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      if (error) return reject(error);
      const result = JSON.parse(stdout) as { requests: { total: number }; errors: number; timeouts: number; non2xx: number };
      resolve({ requests: result.requests.total, bad: result.errors + result.timeouts + result.non2xx });
    }),
  );
}

/** CPU time of the edge's process per request, in µs, serving hits at `rate` (recording on: until every recorded request is in the explorer, in standalone). */
async function cpuPerRequest(originUrl: string, record: boolean, engines: Engines | undefined, rate: number): Promise<number> {
  return withEdge(originUrl, record, engines, async ({ edge, projector, pid }) => {
    await warm(edge);
    await loadFromChild(`${edge}/${PAGE}`, rate, WARMUP_S);
    if (record && projector) await explorerCatchUp(projector);
    const before = processCpuMicros(pid);
    const { requests, bad } = await loadFromChild(`${edge}/${PAGE}`, rate, MEASURE_S);
    if (bad > 0) throw new Error(`edge at ${Math.round(rate)} req/s (recording ${record ? 'on' : 'off'}): ${bad} errors, timeouts or non-2xx answers`);
    if (record && projector) await explorerCatchUp(projector);
    return (processCpuMicros(pid) - before) / requests;
  });
}

/** 100 concurrent misses of one URL (the origin answers in 300 ms): the origin must see one fetch. */
async function concurrentMisses(origin: TestOrigin, originUrl: string, engines: Engines | undefined): Promise<{ fetches: number; answered: number }> {
  const target = engines ? '/popular-cluster' : '/popular';
  return withEdge(originUrl, true, engines, async ({ edge }) => {
    const result = await autocannon({ url: `${edge}/https://www.example.com${target}`, headers: botHeaders, connections: 100, amount: 100, workers: 1 });
    return { fetches: origin.hits.get(target) ?? 0, answered: result['2xx'] };
  });
}

/** One round of a mode: the plain baseline, then the edge with recording on and off (in alternating order across rounds). */
interface Round {
  readonly plain: Measured;
  readonly on: EdgeRun;
  readonly off: EdgeRun;
}

/**
 * `ROUNDS` rounds of one mode. Each round measures plain node:http (it
 * replays a warm edge's answer, captured once per mode), then the two edges
 * one after the other, recording on first in even rounds and off first in
 * odd ones: a drift of the host's speed during the run, or whatever the
 * measurement before leaves behind on the machine, favours neither.
 */
async function measureMode(originUrl: string, engines: Engines | undefined): Promise<Measurements> {
  const sample = await withEdge(originUrl, true, engines, ({ edge }) => warm(edge));
  const rounds: Round[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const plain = await measurePlain(sample);
    const measureOn = (): Promise<EdgeRun> => measureEdge(originUrl, true, engines);
    const measureOff = (): Promise<EdgeRun> => measureEdge(originUrl, false, engines);
    const [on, off] = round % 2 === 0 ? [await measureOn(), await measureOff()] : await measureOff().then(async (o) => [await measureOn(), o] as const);
    rounds.push({ plain, on, off });
  }
  const rate = CPU_RATE_SHARE * median(rounds.map((r) => r.off.load.rps));
  // Off, on, off, on, so a drift of the host favours neither; each figure is the median (the mean) of its two.
  const cpu = { rate, off: [] as number[], on: [] as number[] };
  for (const record of [false, true, false, true]) cpu[record ? 'on' : 'off'].push(await cpuPerRequest(originUrl, record, engines, rate));
  return { rounds, bytes: sample.body.length, cpu: { rate, off: median(cpu.off), on: median(cpu.on) } };
}

interface Measurements {
  readonly rounds: Round[];
  readonly bytes: number;
  /** CPU µs per request at `rate` req/s, recording off and on. */
  readonly cpu: { readonly rate: number; readonly off: number; readonly on: number };
}

/** A mode's rows, its plain baseline first: medians over its rounds, each ratio the median of the rounds' own ratios. */
function modeRows(mode: string, measured: Measurements, misses: { fetches: number; answered: number }): BenchRow[] {
  const { rounds, bytes, cpu } = measured;
  const of = (pick: (r: Round) => number): number => median(rounds.map(pick));
  const plain = { name: `plain node:http, same bytes (median of ${rounds.length} rounds)`, value: of((r) => r.plain.rps), unit: 'req/s' };
  const ratio = of((r) => r.on.load.rps / r.plain.rps);
  const costOf = (r: Round): number => (r.off.load.rps - r.on.load.rps) / r.off.load.rps;
  const cost = of(costOf);
  // The rounds' own costs, in the order measured: how far the host's drift moved them.
  const roundCosts = rounds.map((r) => costOf(r) * 100);
  const p99 = of((r) => r.on.load.p99);
  const unrecorded = rounds.filter((r) => r.on.recorded < r.on.load.requests).length;
  return [
    { name: `plain node:http sending the edge's cached answer (same headers, ${bytes} B gzipped body), median of the rounds before ${mode}`, value: plain.value, unit: 'req/s', target: '' },
    { name: `plain node:http p99, before ${mode}`, value: of((r) => r.plain.p99), unit: 'ms', target: '' },
    { name: `edge cache hit, recording on (${mode})`, value: of((r) => r.on.load.rps), unit: 'req/s', target: '>= 50% of plain node:http', pass: ratio >= 0.5, baseline: plain, ratio },
    { name: `edge cache hit p99, recording on (${mode})`, value: p99, unit: 'ms', target: '<= 25 ms', pass: p99 <= 25 },
    { name: `edge cache hit, recording off (${mode})`, value: of((r) => r.off.load.rps), unit: 'req/s', target: '', baseline: plain, ratio: of((r) => r.off.load.rps / r.plain.rps) },
    { name: `edge cache hit p99, recording off (${mode})`, value: of((r) => r.off.load.p99), unit: 'ms', target: '' },
    {
      name: `recording cost: throughput lost with recording on (${mode})`,
      value: cost * 100,
      unit: '%',
      target: '<= 15% of throughput',
      pass: cost <= 0.15,
      baseline: { name: 'recording off', value: of((r) => r.off.load.rps), unit: 'req/s' },
      // Each round's on ÷ off is 1 minus its cost: the median of one is 1 minus the median of the other.
      ratio: 1 - cost,
    },
    { name: `recording cost, each round as measured (${mode}): ${roundCosts.map((c) => c.toFixed(1)).join(' / ')} %; the highest`, value: Math.max(...roundCosts), unit: '%', target: '' },
    { name: `CPU per request at ${Math.round(cpu.rate)} req/s, recording off (${mode}, every thread of the process)`, value: cpu.off, unit: 'µs', target: '' },
    {
      name: `CPU per request at ${Math.round(cpu.rate)} req/s, recording on (${mode}, every thread of the process${rounds.some((r) => r.on.explorer) ? ', explorer catch-up included' : ''})`,
      value: cpu.on,
      unit: 'µs',
      target: '',
      baseline: { name: 'recording off', value: cpu.off, unit: 'µs' },
      ratio: cpu.on / cpu.off,
    },
    { name: `rounds with fewer requests recorded or buffered than measured (${mode})`, value: unrecorded, unit: 'rounds', target: '= 0', pass: unrecorded === 0 },
    ...explorerRows(mode, rounds),
    { name: `100 concurrent misses of one URL: origin fetches (${mode})`, value: misses.fetches, unit: 'fetches', target: '= 1, 100 answered 2xx', pass: misses.fetches === 1 && misses.answered === 100 },
  ];
}

/** Standalone only: how far the explorer fell behind while the load lasted, and how soon after it ended it had every request (medians). */
function explorerRows(mode: string, rounds: readonly Round[]): BenchRow[] {
  const caughtUp = rounds.flatMap((r) => (r.on.explorer ? [r.on.explorer] : []));
  if (caughtUp.length === 0) return [];
  const after = median(caughtUp.map((c) => c.caughtUpMs)) / 1000;
  return [
    { name: `explorer lag when the load ended: events not yet in ClickHouse (${mode})`, value: median(caughtUp.map((c) => c.lag)), unit: 'events', target: '' },
    { name: `explorer caught up after the load ended, every recorded request in ClickHouse (${mode})`, value: after, unit: 's', target: '<= 10 s', pass: after <= 10 },
  ];
}

const MARKDOWN_PAGE = 'https://www.example.com/agents/pricing';
const markdownHeaders = { ...botHeaders, accept: 'text/markdown' };
/** Rounds of the Markdown rows (each an HTML hit and a Markdown hit measured, in alternating order). */
const MARKDOWN_ROUNDS = Number(process.env.BENCH_EDGE_MARKDOWN_ROUNDS ?? 5);

/** One standalone edge: the page rendered and converted once, then HTML hits and Markdown hits of it measured by turns. */
async function measureMarkdownHits(originUrl: string): Promise<{ html: number[]; markdown: number[]; ratios: number[]; htmlBytes: number; markdownBytes: number }> {
  return withEdge(originUrl, true, undefined, async ({ edge }) => {
    const get = (headers: Record<string, string>) => rawRequest(edge, `/${MARKDOWN_PAGE}`, { headers });
    await get(botHeaders);
    await get(markdownHeaders);
    const [html, markdown] = [await get(botHeaders), await get(markdownHeaders)];
    if (html.headers['x-prerender-cache'] !== 'hit' || markdown.headers['x-prerender-cache'] !== 'hit' || markdown.headers['content-type'] !== 'text/markdown; charset=utf-8') {
      throw new Error(`Markdown warm-up: expected an HTML hit and a Markdown hit, got ${html.headers['x-prerender-cache']} and ${markdown.headers['x-prerender-cache']} ${markdown.headers['content-type']}`);
    }
    const rows = { html: [] as number[], markdown: [] as number[], ratios: [] as number[], htmlBytes: html.body.length, markdownBytes: markdown.body.length };
    for (let round = 0; round < MARKDOWN_ROUNDS; round += 1) {
      const measureHtml = () => load(`${edge}/${MARKDOWN_PAGE}`, botHeaders, 'edge HTML hit (Markdown rows)');
      const measureMarkdown = () => load(`${edge}/${MARKDOWN_PAGE}`, markdownHeaders, 'edge Markdown hit');
      const [h, m] = round % 2 === 0 ? [await measureHtml(), await measureMarkdown()] : await measureMarkdown().then(async (m) => [await measureHtml(), m] as const);
      rows.html.push(h.rps);
      rows.markdown.push(m.rps);
      rows.ratios.push(m.rps / h.rps);
    }
    return rows;
  });
}

/** Conversion time (in this process, as the edge's conversion thread runs it) and tokens, Markdown against HTML, on the bench pages. */
function conversionRows(): BenchRow[] {
  const pages = [pageHtml(), ...Array.from({ length: 20 }, (_, n) => productPageHtml(n))];
  const times: number[] = [];
  let htmlTokens = 0;
  let markdownTokens = 0;
  for (let pass = 0; pass < 3; pass += 1) {
    for (const [n, html] of pages.entries()) {
      const started = performance.now();
      const { tokens } = renderMarkdown({ url: `https://www.example.com/p/${n}`, html, renderedAt: '2026-12-07T00:00:00.000Z' });
      times.push(performance.now() - started);
      if (pass === 0) {
        htmlTokens += countTokens(html);
        markdownTokens += tokens;
      }
    }
  }
  const p50 = median(times.slice(pages.length));
  const fewer = (1 - markdownTokens / htmlTokens) * 100;
  return [
    { name: `Markdown conversion p50 per bench page (${pages.length} pages, 12–40 KB of HTML, the first pass as warm-up)`, value: p50, unit: 'ms', target: '<= 15 ms', pass: p50 <= 15 },
    { name: `Markdown tokens against HTML tokens on the bench pages (gpt-tokenizer o200k_base; ${markdownTokens} against ${htmlTokens})`, value: fewer, unit: '% fewer', target: '>= 60% fewer', pass: fewer >= 60 },
  ];
}

async function markdownRows(originUrl: string): Promise<BenchRow[]> {
  const hits = await measureMarkdownHits(originUrl);
  const ratio = median(hits.ratios);
  return [
    { name: `edge HTML hit of a render (standalone, ${hits.htmlBytes} B gzipped), median of ${hits.ratios.length} rounds`, value: median(hits.html), unit: 'req/s', target: '' },
    {
      name: `edge Markdown hit ÷ HTML hit (already converted, ${hits.markdownBytes} B gzipped; rounds: ${hits.ratios.map((r) => r.toFixed(2)).join(' / ')})`,
      value: median(hits.markdown),
      unit: 'req/s',
      target: '>= 0.8 of the HTML hit',
      pass: ratio >= 0.8,
      baseline: { name: 'HTML hit', value: median(hits.html), unit: 'req/s' },
      ratio,
    },
    ...conversionRows(),
  ];
}

export const edgeBench: BenchSuite = {
  name: 'edge',
  async run(): Promise<BenchRow[]> {
    const origin = new TestOrigin((p) => ({ status: 200, body: pageHtml(), delayMs: p.startsWith('/popular') ? 300 : 0 }));
    const originUrl = await origin.start();
    if (process.env.BENCH_EDGE_MARKDOWN_ONLY === '1') {
      try {
        return await markdownRows(originUrl);
      } finally {
        await origin.stop();
      }
    }
    const [redis, kafka] = await Promise.all([startRedis(), startKafkaMock()]);
    try {
      const rows: BenchRow[] = [];
      if (MODES.includes('standalone')) {
        const standalone = await measureMode(originUrl, undefined);
        const standaloneMisses = await concurrentMisses(origin, originUrl, undefined);
        rows.push(...modeRows('standalone, all apps in one process', standalone, standaloneMisses));
      }
      if (MODES.includes('cluster')) {
        const engines = { redis, kafka };
        const cluster = await measureMode(originUrl, engines);
        const clusterMisses = await concurrentMisses(origin, originUrl, engines);
        rows.push(...modeRows('cluster, edge app alone on Kafka + Redis', cluster, clusterMisses));
      }
      rows.push(...(await markdownRows(originUrl)));
      return rows;
    } finally {
      await Promise.all([redis.stop(), kafka.stop(), origin.stop()]);
    }
  },
};
