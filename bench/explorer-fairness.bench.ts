import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { validateConfig } from '@bpc/config';
import { createLogger } from '@bpc/platform';
import { startApps } from '@bpc/composition';
import { insertBulkBotRequests } from '@bpc/testing';
import type { BenchRow, BenchSuite } from './bench-row';
import { projectorApp } from '../apps/projector/src/projector.app';
import { publicApiApp } from '../apps/public-api/src/public-api.app';
import { percentile, upperMedian } from './stats';
import { timed } from './timing';

const KEY = 'bench-internal-key';
const FLOOD_CLIENTS = 50;
/** Account A's rows: its costly query reads them all (~0.35–0.6 s a statement on the 2-core reference machine when idle). */
const FLOOD_ROWS = Number(process.env.BENCH_FAIRNESS_FLOOD_ROWS ?? 2_000_000);
const QUIET_ROWS = 20_000;
const IDLE_RUNS = 51;
const LOADED_RUNS = 101;
/**
 * Valid and within the regex budget (1000 repetitions: the most one pattern
 * may ask for), so it passes validation and still costs the engine real time
 * per row: the pattern was this one forty times, now refused.
 */
const COSTLY_BODY = JSON.stringify({ filters: [{ field: 'url', op: 'regex', val: '[\\x{0}-\\x{10FFFF}]{1000}' }] });
const DEFAULT_BODY = '{}';

interface Answer {
  readonly status: number;
  readonly retryAfterS: number;
}

/**
 * Account B's default events query, alone and while account A's 50 clients
 * keep costly queries in flight (each sends the next as soon as it has an
 * answer, after `Retry-After` when refused), in the same run: B must not wait
 * behind A's queue.
 */
export const explorerFairnessBench: BenchSuite = {
  name: 'explorer-fairness',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-bench-fairness-'));
    const config = validateConfig(
      {
        data_dir: dir,
        internal_auth_key: KEY,
        logging: { level: 'error' },
        listen: { host: '127.0.0.1', public_api: 0, daemon: 0, edge: 0, projector: 0 },
        hosts: [{ host_id: 1, hostnames: ['www.example.com'], dimensions: [{ id: 1, name: 'desktop' }] }],
        websites: [
          { id: 'flood', host_id: 1, account_id: 'account-a' },
          { id: 'quiet', host_id: 1, account_id: 'account-b' },
        ],
        rate_limit: { enabled: false },
      },
      'bench',
    );
    const running = await startApps([projectorApp, publicApiApp], config, createLogger('error', 'bench-explorer-fairness'));
    try {
      const store = running.runtime.ports.explorerStore!;
      await insertBulkBotRequests(store, 'flood', FLOOD_ROWS, Date.now() - 60_000);
      await insertBulkBotRequests(store, 'quiet', QUIET_ROWS, Date.now() - 60_000);
      const api = running.urls['public-api']!;
      const query = { flood: await queryOf(api, 'flood'), quiet: await queryOf(api, 'quiet') };

      for (let i = 0; i < 3; i++) await query.quiet(DEFAULT_BODY);
      const idle: number[] = [];
      for (let i = 0; i < IDLE_RUNS; i++) idle.push(await timed(() => query.quiet(DEFAULT_BODY)));

      const flood = startFlood(() => query.flood(COSTLY_BODY));
      const loaded: number[] = [];
      const lag = monitorEventLoopDelay({ resolution: 10 });
      let floodSeconds: number;
      try {
        // The engine is saturated once A has as many statements as it may: its first refusal says so.
        await flood.saturated;
        const started = performance.now();
        lag.enable();
        for (let i = 0; i < LOADED_RUNS; i++) loaded.push(await timed(() => query.quiet(DEFAULT_BODY)));
        lag.disable();
        floodSeconds = (performance.now() - started) / 1000;
      } finally {
        await flood.stop();
      }
      const idleP50 = upperMedian(idle);
      const loadedP99 = percentile(loaded, 99);
      const target = 2 * idleP50 + 100;
      const answered = flood.counts.answered;
      return [
        {
          name: `explorer fairness: account B's default query while account A keeps ${FLOOD_CLIENTS} costly regex queries in flight (${FLOOD_ROWS.toLocaleString('en')} rows), p99 of ${LOADED_RUNS}`,
          value: loadedP99,
          unit: 'ms',
          target: '<= 2 x idle p50 + 100 ms',
          pass: loadedP99 <= target,
          baseline: { name: `B alone, p50 of ${IDLE_RUNS}`, value: idleP50, unit: 'ms' },
          ratio: loadedP99 / idleP50,
        },
        { name: "explorer fairness: account B's default query while A floods, p50", value: upperMedian(loaded), unit: 'ms', target: '' },
        { name: "explorer fairness: account B's default query alone, p99", value: percentile(idle, 99), unit: 'ms', target: '' },
        // B's slowest answers follow the longest event-loop stalls (chDB starts a statement on the event loop: ms each, more when the host is busy).
        { name: 'explorer fairness: event loop delay while A floods, max', value: lag.max / 1e6, unit: 'ms', target: '' },
        { name: `explorer fairness: account A's costly queries answered while B was measured (${flood.counts.refused} refused 503 with Retry-After, ${flood.counts.other} other answers)`, value: answered / floodSeconds, unit: 'queries/s', target: '' },
      ];
    } finally {
      await running.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

/** Posts the events query of `website` with a readonly token of its own; account B's must succeed. */
async function queryOf(api: string, website: 'flood' | 'quiet'): Promise<(body: string) => Promise<Answer>> {
  const issued = await fetch(`${api}/internal/admin/tokens`, { method: 'POST', headers: { 'x-internal-auth': KEY, 'content-type': 'application/json' }, body: JSON.stringify({ user: website, website, role: 'readonly' }) });
  const { token } = (await issued.json()) as { token: string };
  return async (body) => {
    const response = await fetch(`${api}/api/websites/${website}/data-explorer/events/query`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
    await response.arrayBuffer();
    if (website === 'quiet' && response.status !== 200) throw new Error(`account B's query: ${response.status}`);
    return { status: response.status, retryAfterS: Number(response.headers.get('retry-after') ?? 0) };
  };
}

/** `FLOOD_CLIENTS` loops, each sending the next query once the last is answered (after `Retry-After` when refused), until stopped. */
function startFlood(send: () => Promise<Answer>) {
  const counts = { answered: 0, refused: 0, other: 0 };
  let stopped = false;
  let wakeUp: () => void = () => undefined;
  const stoppedSignal = new Promise<void>((resolve) => (wakeUp = resolve));
  let saturate: () => void = () => undefined;
  const saturated = new Promise<void>((resolve) => (saturate = resolve));
  const client = async (): Promise<void> => {
    while (!stopped) {
      const answer = await send();
      if (answer.status === 200) counts.answered += 1;
      else if (answer.status === 503) {
        counts.refused += 1;
        saturate();
        await Promise.race([stoppedSignal, new Promise((r) => setTimeout(r, answer.retryAfterS * 1000).unref())]);
      } else counts.other += 1;
    }
  };
  const clients = Array.from({ length: FLOOD_CLIENTS }, client);
  return {
    counts,
    saturated,
    async stop(): Promise<void> {
      stopped = true;
      wakeUp();
      await Promise.all(clients);
    },
  };
}
