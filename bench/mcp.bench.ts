import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { createLogger } from '@bpc/platform';
import { startApps } from '@bpc/composition';
import type { BenchRow, BenchSuite } from './bench-row';
import { issueBenchToken, oneWebsiteBenchConfig } from './bench-service';
import { projectorApp } from '../apps/projector/src/projector.app';
import { publicApiApp } from '../apps/public-api/src/public-api.app';
import { botRequestsSql } from './explorer.bench';
import { interleavedP50 } from './timing';

const ROWS = Number(process.env.BENCH_MCP_ROWS ?? 1_000_000);
const RUNS = 21;
/** The connector's budget over the API call it makes (issue 31). */
const OVERHEAD_TARGET_MS = 10;

/** A query a model would send: the week's most crawled pages, one page of 50. */
const QUERY = { mode: 'unique_pages', period: '7d', perPage: 50, columns: ['page', 'requests', 'hit_rate'] };

/**
 * `query_explorer` over Streamable HTTP (`/mcp`, an initialised SDK client,
 * the tool call in process through the API's own route) against the same
 * query sent to the API directly; p50 of interleaved runs in one process.
 */
export const mcpBench: BenchSuite = {
  name: 'mcp',
  async run(): Promise<BenchRow[]> {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-bench-mcp-'));
    const nowMs = Date.now();
    const rows: BenchRow[] = [];
    try {
      const config = oneWebsiteBenchConfig(dir);
      const running = await startApps([projectorApp, publicApiApp], config, createLogger('warn', 'bench-mcp'));
      const client = new Client({ name: 'bench', version: '1.0.0' });
      try {
        const store = running.runtime.ports.explorerStore!;
        await store.command(botRequestsSql(nowMs, ROWS));
        await store.command('OPTIMIZE TABLE bot_requests FINAL');
        const api = running.urls['public-api']!;
        const token = await issueBenchToken(api, 'readonly');
        await client.connect(new StreamableHTTPClientTransport(new URL(`${api}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));

        const direct = async () => {
          const response = await fetch(`${api}/api/websites/bench/data-explorer/events/query`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(QUERY) });
          if (response.status !== 200) throw new Error(`direct query: ${response.status} ${await response.text()}`);
          await response.json();
        };
        const overMcp = async () => {
          const result = await client.callTool({ name: 'query_explorer', arguments: { website: 'bench', explorer: 'events', ...QUERY } });
          if (result.isError) throw new Error(`query_explorer: ${JSON.stringify(result.content)}`);
        };
        await direct();
        await overMcp();
        const { measuredMs: m, baselineMs: d } = await interleavedP50(overMcp, direct, RUNS);
        rows.push({
          name: `mcp query_explorer over Streamable HTTP (events unique_pages 7d, 50 rows, ${ROWS.toLocaleString('en')} rows) (p50)`,
          value: m,
          unit: 'ms',
          target: `<= direct + ${OVERHEAD_TARGET_MS} ms`,
          pass: m <= d + OVERHEAD_TARGET_MS,
          baseline: { name: 'same query, public API directly', value: d, unit: 'ms' },
          ratio: m / d,
        });
      } finally {
        await client.close();
        await running.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};
