import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TOPICS } from '@bpc/events';
import { FileEventLog } from '@bpc/event-log';
import { buildExplorerSql, DEFAULT_LIMITS, demoTraffic, findExplorer, QueryBody, resolveQuery } from '@bpc/explorer';
import { createLogger } from '@bpc/platform';
import { startApps } from '@bpc/composition';
import type { BenchRow, BenchSuite } from './bench-row';
import { issueBenchToken, oneWebsiteBenchConfig } from './bench-service';
import { projectorApp } from '../apps/projector/src/projector.app';
import { publicApiApp } from '../apps/public-api/src/public-api.app';
import { interleavedP50 } from './timing';

const REPLAY_EVENTS = Number(process.env.BENCH_EXPLORER_REPLAY ?? 1_000_000);
const QUERY_ROWS = Number(process.env.BENCH_EXPLORER_ROWS ?? 10_000_000);
const RUNS = 7;
const DAY = 86_400_000;

/** Appends the replay to a fresh file log before any app runs, so the projector replays it from the start. */
async function writeReplay(dir: string, nowMs: number): Promise<number> {
  const log = await FileEventLog.open({ dir: path.join(dir, 'event-log'), partitions: 4 });
  let written = 0;
  try {
    const perDay = Math.ceil(REPLAY_EVENTS / 365 / 1.0);
    for (const { botRequests } of demoTraffic({ websiteId: 'replay', hostId: 1, hostname: 'www.example.com', nowMs, days: 400, requestsPerDay: perDay, seed: 1 })) {
      const take = botRequests.slice(0, REPLAY_EVENTS - written);
      for (let i = 0; i < take.length; i += 10_000) await log.append(TOPICS.botRequests, take.slice(i, i + 10_000));
      written += take.length;
      if (written >= REPLAY_EVENTS) break;
    }
  } finally {
    await log.close();
  }
  return written;
}

/** 12 months of skewed synthetic bot traffic for one website, generated inside the engine (the query cost depends on the data, not on how it arrived). Also used by the exports bench. */
export function botRequestsSql(nowMs: number, rows = QUERY_ROWS): string {
  const start = Math.floor((nowMs - 365 * DAY) / 1000);
  // Who reads, by the bot's index: its category and operator as the edge's classifier records them.
  const bot = '(cityHash64(number, 3) % 8) + 1';
  return `INSERT INTO bot_requests (website, host, url, page_title, status_code, bot_name, user_agent, dimension_id, dimension_name, cache_status, serve_time_ms, snapshot_age_s, bytes, ts, request_id, event_id, format, bot_category, bot_operator, verified, robots_allowed)
  SELECT
    'bench', 'www.example.com',
    concat('https://www.example.com/p', toString(toUInt32(pow((cityHash64(number, 1) % 1000000) / 1000000.0, 3) * 50000))),
    'Page title', [200, 200, 200, 200, 200, 200, 200, 200, 404, 301][(cityHash64(number, 2) % 10) + 1],
    ['Googlebot', 'Googlebot', 'Googlebot', 'Bingbot', 'GPTBot', 'YandexBot', 'Applebot', 'ClaudeBot'][${bot}],
    'UA', 1, 'desktop', ['hit', 'hit', 'hit', 'stale', 'miss'][(cityHash64(number, 4) % 5) + 1],
    10 + cityHash64(number, 5) % 2000, NULL, 20000,
    fromUnixTimestamp64Milli(toInt64((${start} + number * ${(365 * 86400) / rows}) * 1000)),
    concat('r', toString(number)), concat('e', toString(number)),
    'html', ['search', 'search', 'search', 'search', 'ai_training', 'search', 'search', 'ai_training'][${bot}],
    ['Google', 'Google', 'Google', 'Microsoft', 'OpenAI', 'Yandex', 'Apple', 'Anthropic'][${bot}], 'yes', 'yes'
  FROM numbers(${rows})`;
}

/** A year of daily search figures for 5,000 pages of the bench website (also used by the pages-query bench). */
export function searchSql(nowMs: number): string[] {
  const today = new Date(Math.floor(nowMs / DAY) * DAY).toISOString().slice(0, 10);
  return [
    `INSERT INTO search_page_daily SELECT 'bench', toDate('${today}') - 1 - intDiv(number, 5000), concat('https://www.example.com/p', toString(number % 5000)),
       toUInt32(cityHash64(number) % 50), toUInt32(100 + cityHash64(number, 1) % 1000), 1 + (cityHash64(number, 2) % 300) / 10.0, toDateTime64('${today} 00:00:00', 3)
     FROM numbers(365 * 5000)`,
    `INSERT INTO search_day_imports SELECT 'bench', 'page', toDate('${today}') - 1 - number, toDateTime64('${today} 00:00:00', 3) FROM numbers(365)`,
  ];
}

export const explorerBench: BenchSuite = {
  name: 'explorer',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-bench-explorer-'));
    const nowMs = Date.now();
    const rows: BenchRow[] = [];
    try {
      const replayed = await writeReplay(dir, nowMs);
      const config = oneWebsiteBenchConfig(dir);
      const started = performance.now();
      const running = await startApps([projectorApp, publicApiApp], config, createLogger('warn', 'bench-explorer'));
      try {
        const store = running.runtime.ports.explorerStore!;
        const count = async () => Number((await store.query<{ n: number }>("SELECT count() AS n FROM bot_requests FINAL WHERE website = 'replay'"))[0].n);
        while ((await count()) < replayed) await new Promise((r) => setTimeout(r, 100));
        const seconds = (performance.now() - started) / 1000;
        const exact = await count();
        rows.push({ name: `projection: ${replayed.toLocaleString('en')} BotRequestRecorded replayed from the file log into chDB (incl. startup)`, value: replayed / seconds, unit: 'events/s', target: '>= 50000 events/s, exact count', pass: replayed / seconds >= 50_000 && exact === replayed });

        await store.command(botRequestsSql(nowMs));
        for (const sql of searchSql(nowMs)) await store.command(sql);
        await store.command('OPTIMIZE TABLE bot_requests FINAL');

        const api = running.urls['public-api']!;
        const token = await issueBenchToken(api, 'readonly');
        const cases: [string, string, QueryBody][] = [
          ['events requests (defaults)', 'events', {}],
          ['events unique_pages 30d', 'events', { mode: 'unique_pages', period: '30d' }],
          ['events comparison 30d vs previous', 'events', { mode: 'comparison', period: '30d' }],
          ['search-pages 90d', 'search-pages', { period: '90d' }],
        ];
        for (const [name, explorerKey, body] of cases) {
          const http = async () => {
            const response = await fetch(`${api}/api/websites/bench/data-explorer/${explorerKey}/query`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
            if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`);
            await response.json();
          };
          const direct = async () => {
            const sql = buildExplorerSql(resolveQuery(findExplorer(explorerKey)!, body, Date.now(), DEFAULT_LIMITS), 'bench');
            const [, page] = await Promise.all([store.query(sql.countSql, sql.params), store.query(sql.pageSql, sql.params)]);
            if (sql.companionSql && page.length > 0) await store.query(sql.companionSql, { ...sql.params, urls: page.map((r) => String(r._rowId)) });
          };
          await http();
          await direct();
          const { measuredMs: h, baselineMs: d } = await interleavedP50(http, direct, RUNS);
          rows.push({ name: `query over HTTP: ${name}, ${QUERY_ROWS.toLocaleString('en')} rows / 12 months (p50)`, value: h, unit: 'ms', target: '<= 1.5 x direct + 20 ms', pass: h <= 1.5 * d + 20, baseline: { name: 'same SQL on the executor', value: d, unit: 'ms' }, ratio: h / d });
          if (name.startsWith('events unique_pages')) rows.push({ name: 'query over HTTP: events unique_pages 30d (p50)', value: h, unit: 'ms', target: '<= 300 ms', pass: h <= 300 });
        }
      } finally {
        await running.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
