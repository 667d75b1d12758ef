import { BOT_REQUEST_EVENTS_TABLE } from './tables/bot-requests/bot-requests.table';
import { RENDER_RECORDED_EVENTS_TABLE } from './tables/render-outcomes/render-outcomes.table';

/**
 * Settings both adapters pin on every query, so results do not depend on the
 * server's defaults or the host's time zone: explorer numbers come back as JSON
 * numbers (counts and byte sums stay far below 2^53).
 */
export const PINNED_QUERY_SETTINGS = {
  output_format_json_quote_64bit_integers: 0,
  session_timezone: 'UTC',
} as const;

/**
 * Settings of every insert besides its deduplication token: accept ISO 8601
 * timestamps as well as `YYYY-MM-DD hh:mm:ss`, reject unknown fields instead
 * of silently dropping them (a renamed column must fail loudly), and apply
 * the token to the blocks a materialized view writes too (an insert into an
 * intake table such as `bot_request_events` is deduplicated in its target).
 */
export const INSERT_SETTINGS = {
  date_time_input_format: 'best_effort',
  input_format_skip_unknown_fields: 0,
  deduplicate_blocks_in_dependent_materialized_views: 1,
} as const;

/**
 * Intake tables take stored events as the log holds them (see
 * tables/bot-requests/004_bot_request_events.sql): a field they do not map,
 * such as one a later envelope adds, is skipped rather than refused, as a
 * projection in code would ignore it. A refused insert would hold up the
 * projection for good.
 */
const INTAKE_TABLES: ReadonlySet<string> = new Set([BOT_REQUEST_EVENTS_TABLE, RENDER_RECORDED_EVENTS_TABLE]);

/** The settings of an insert into `table` (besides its token). */
function insertSettings(table: string): Readonly<Record<string, string | number>> {
  return INTAKE_TABLES.has(table) ? { ...INSERT_SETTINGS, input_format_skip_unknown_fields: 1 } : INSERT_SETTINGS;
}

/**
 * The longest an export's query may run (seconds): a runaway export must not
 * hold the engine (chDB runs such statements one at a time per process) or
 * shutdown for long. The ClickHouse client waits at least this long.
 */
export const EXPORT_TIME_LIMIT_S = 300;

const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)?$/;

/** Table names come from code, never from users; still, only plain identifiers pass. */
export function assertTableName(table: string): string {
  if (!TABLE_NAME.test(table)) throw new RangeError(`invalid table name ${JSON.stringify(table)}`);
  return table;
}

/** A ClickHouse single-quoted string literal (backslash and quote escaped). */
export function quoteStringLiteral(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/**
 * `INSERT INTO t SETTINGS … FORMAT JSONEachRow` with the token in the query's
 * own SETTINGS clause: per-request settings would leak into later statements
 * on chDB's connection, where they become session `SET`s. With `file`, the
 * rows are read from that file (`FROM INFILE`, uncompressed whatever its
 * name) instead of following the statement; `settings` are an adapter's
 * own, and cannot change the insert's (token, formats, deduplication).
 */
export function insertStatement(table: string, token: string, options: { readonly file?: string; readonly settings?: Readonly<Record<string, string | number>> } = {}): string {
  const source = options.file === undefined ? '' : ` FROM INFILE ${quoteStringLiteral(options.file)} COMPRESSION 'none'`;
  return `INSERT INTO ${assertTableName(table)}${source} SETTINGS ${settingsClause({ ...options.settings, insert_deduplication_token: token, ...insertSettings(table) })} FORMAT JSONEachRow`;
}

/** The body of a SETTINGS clause, `name = value, …`, strings as quoted literals (names are the caller's constants). */
export function settingsClause(settings: Readonly<Record<string, string | number>>): string {
  return Object.entries(settings)
    .map(([name, value]) => `${name} = ${typeof value === 'string' ? quoteStringLiteral(value) : value}`)
    .join(', ');
}

/** An empty token would switch ClickHouse back to content-hash deduplication. */
export function assertDedupToken(token: string): string {
  if (typeof token !== 'string' || token.length === 0) throw new RangeError('insert token must be a non-empty string');
  return token;
}
