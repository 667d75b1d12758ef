import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildRendersSql, DEFAULT_LIMITS, QueryBody, rendersCatalogOf, resolveQuery } from '@bpc/explorer';
import { createLogger } from '@bpc/platform';
import { startApps } from '@bpc/composition';
import { bulkRenderOutcomesSql } from '../test/harness/render-outcome-fixture';
import type { BenchRow, BenchSuite } from './bench-row';
import { issueBenchToken, oneWebsiteBenchConfig } from './bench-service';
import { projectorApp } from '../apps/projector/src/projector.app';
import { publicApiApp } from '../apps/public-api/src/public-api.app';
import { interleavedP50 } from './timing';

/** Render outcomes over 12 months for the bench website's host: the issue's 10,000,000. */
const ROWS = 10_000_000;
const RUNS = 7;

/**
 * Render history queries over HTTP (authentication, validation, admission,
 * the handler, JSON) against the same statements run directly on the
 * executor: what the API adds to the engine's own time.
 */
export const rendersQueryBench: BenchSuite = {
  name: 'renders-query',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-bench-renders-'));
    const rows: BenchRow[] = [];
    try {
      const config = oneWebsiteBenchConfig(dir);
      const running = await startApps([projectorApp, publicApiApp], config, createLogger('warn', 'bench-renders'));
      try {
        const store = running.runtime.ports.explorerStore!;
        await store.command(bulkRenderOutcomesSql(1, ROWS, Date.now()));
        await store.command('OPTIMIZE TABLE render_outcomes FINAL');
        const api = running.urls['public-api']!;
        const token = await issueBenchToken(api, 'readonly');
        const explorer = rendersCatalogOf(config, 'bench');
        const cases: [string, QueryBody][] = [
          ['renders (defaults: 7d, newest first, 100 rows)', {}],
          ['reasons 30d, failures and kept only', { mode: 'reasons', period: '30d', filters: [{ field: 'outcome_class', op: 'ne', val: 'stored' }] }],
          ['renders 90d, failed, URL contains, slowest first', { period: '90d', sort: 'render_ms', filters: [{ field: 'outcome_class', val: 'failed' }, { field: 'url', op: 'contains', val: '/p1' }] }],
        ];
        for (const [name, body] of cases) {
          const http = async () => {
            const response = await fetch(`${api}/api/websites/bench/renders/query`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
            if (response.status !== 200) throw new Error(`${name}: ${response.status} ${await response.text()}`);
            await response.json();
          };
          const direct = async () => {
            const sql = buildRendersSql({ ...resolveQuery(explorer, body, Date.now(), DEFAULT_LIMITS), explorer });
            await Promise.all([store.query(sql.countSql, sql.params), store.query(sql.pageSql, sql.params)]);
          };
          await http();
          await direct();
          const { measuredMs: h, baselineMs: d } = await interleavedP50(http, direct, RUNS);
          rows.push({ name: `render history over HTTP: ${name}, ${ROWS.toLocaleString('en')} outcomes / 12 months (p50)`, value: h, unit: 'ms', target: '<= 1.5 x direct + 20 ms', pass: h <= 1.5 * d + 20, baseline: { name: 'same SQL on the executor', value: d, unit: 'ms' }, ratio: h / d });
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
