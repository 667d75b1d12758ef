import { assertNever } from '@bpc/domain';
import type { TimeWindow } from '../periods/periods';
import type { Interval } from '../insights/insights-catalog';
import type { ResolvedFilter, ResolvedQuery } from '../resolve-query/resolve-query';
import { ExplorerSql, filterSql, RENDER_FILTER_SQL, selectAndOrder } from '../sql/explorer-sql';
import { FAILED_OUTCOMES, RendersDef } from './renders-catalog';
import { RECACHE_RECEIPTS_TABLE, RENDER_OUTCOMES_TABLE } from '@bpc/explorer-store';

/**
 * SQL of render history over `render_outcomes FINAL` (exact counts: a row
 * the projector delivered twice is read once), always scoped to the
 * website's host (`host_id = {hostId}`, the table's leading key) and the
 * window on `ts` (its second key). User values travel as bound parameters.
 */

/** The host, its window and each filter on its whitelisted column; binds `{hostId}`, `{start}`, `{end}`, the dimension map and `f<i>`. */
export function renderConditions(explorer: RendersDef, window: TimeWindow, filters: readonly ResolvedFilter[], params: Record<string, unknown>): string {
  params.hostId = explorer.hostId;
  params.start = window.start;
  params.end = window.end;
  params.dimIds = explorer.dimensions.map((d) => d.id);
  params.dimNames = explorer.dimensions.map((d) => d.name);
  return ['host_id = {hostId:UInt32}', 'ts >= {start:DateTime64(3)}', 'ts < {end:DateTime64(3)}', ...filters.map((f, i) => filterSql(f, RENDER_FILTER_SQL[f.field], params, i))].join(' AND ');
}

/**
 * A render of a queued entry names the request that queued it (`entry_id`,
 * the RecacheRequested id), and a receipted request's rows carry that id
 * (`recache_receipts.event_id`): the `receipt` column's source, joined only
 * when the column is asked for. One row per request (its rows share the
 * receipt), the host's requests made before the window's end; renders of no
 * receipted request read ''.
 */
const RECEIPTS_BY_ENTRY =
  `LEFT JOIN (SELECT event_id AS r_entry_id, any(receipt_id) AS r_receipt_id FROM ${RECACHE_RECEIPTS_TABLE} ` +
  'WHERE host_id = {hostId:UInt32} AND requested_at < {end:DateTime64(3)} GROUP BY event_id) AS receipts ON receipts.r_entry_id = entry_id';

/** Count and page statements of a render-history query (`query.explorer` is the website's RendersDef). */
export function buildRendersSql(query: ResolvedQuery & { readonly explorer: RendersDef }): ExplorerSql {
  const params: Record<string, unknown> = {};
  const where = renderConditions(query.explorer, query.window, query.filters, params);
  const mode = query.mode.key;
  switch (mode) {
    case 'renders': {
      const { select, order } = selectAndOrder(query, 'event_id', [], params);
      const receipts = query.columns.includes('receipt') ? ` ${RECEIPTS_BY_ENTRY}` : '';
      return {
        countSql: `SELECT count() AS total FROM ${RENDER_OUTCOMES_TABLE} FINAL WHERE ${where}`,
        pageSql: `SELECT ${select.join(', ')} FROM ${RENDER_OUTCOMES_TABLE} FINAL${receipts} WHERE ${where} ${order}`,
        params,
      };
    }
    case 'reasons': {
      const { select, order } = selectAndOrder(query, "concat(outcome, '|', reason)", [], params);
      return {
        countSql: `SELECT uniqExact(outcome, reason) AS total FROM ${RENDER_OUTCOMES_TABLE} FINAL WHERE ${where}`,
        pageSql: `SELECT ${select.join(', ')} FROM ${RENDER_OUTCOMES_TABLE} FINAL WHERE ${where} GROUP BY outcome, reason ${order}`,
        params,
      };
    }
    case 'requests':
    case 'unique_pages':
    case 'comparison':
    case 'search_pages':
    case 'search_keywords':
    case 'pages':
    case 'page_changes':
      throw new Error(`${mode} is a Data Explorer mode: buildQuerySql builds it`);
    default:
      return assertNever(mode);
  }
}

const BUCKET_SQL: Readonly<Record<Interval, string>> = {
  hour: 'toStartOfHour(ts)',
  day: 'toStartOfDay(ts)',
};

const FAILED_SQL = `outcome IN (${FAILED_OUTCOMES.map((o) => `'${o}'`).join(', ')})`;

/** One row of the timeseries statement: a bucket (`t`, epoch ms of its UTC start) with its counts and render-time percentiles. */
export interface RenderBucketRow {
  readonly t: number;
  readonly renders: number;
  readonly stored: number;
  readonly kept: number;
  readonly failed: number;
  readonly p50: number;
  readonly p95: number;
}

/** Renders per bucket by outcome class, with exact render-time percentiles, over one window. */
export function rendersTimeseriesSql(explorer: RendersDef, window: TimeWindow, interval: Interval, filters: readonly ResolvedFilter[]): { sql: string; params: Record<string, unknown> } {
  const params: Record<string, unknown> = {};
  const where = renderConditions(explorer, window, filters, params);
  return {
    sql:
      `SELECT toUnixTimestamp(${BUCKET_SQL[interval]}) * 1000 AS t, count() AS renders, countIf(outcome = 'stored') AS stored, ` +
      `countIf(startsWith(outcome, 'kept_')) AS kept, countIf(${FAILED_SQL}) AS failed, ` +
      `quantileExact(0.5)(render_ms) AS p50, quantileExact(0.95)(render_ms) AS p95 FROM ${RENDER_OUTCOMES_TABLE} FINAL WHERE ${where} GROUP BY t`,
    params,
  };
}
