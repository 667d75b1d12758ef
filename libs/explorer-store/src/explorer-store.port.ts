export const EXPLORER_STORE = Symbol('EXPLORER_STORE');

/**
 * Bound parameters: `{name:Type}` placeholders in the SQL are filled
 * server-side from these values, never spliced into the text.
 */
export type QueryParams = Readonly<Record<string, unknown>>;

export interface InsertBatch {
  readonly table: string;
  readonly rows: readonly Record<string, unknown>[];
  /**
   * Deduplication token: inserting the same token twice into the same table
   * stores the rows once. Derive it from the batch's content or log positions.
   */
  readonly token: string;
}

/**
 * Executes ClickHouse SQL (chDB in-process or a ClickHouse server); both
 * adapters run the same SQL and schema.
 *
 * Guarantees: queries never block the event loop; `stream` yields rows
 * without buffering the whole result; `insert` is idempotent per token.
 */
export interface ExplorerStore {
  /** Applies the DDL in `deploy/clickhouse/` (idempotent). */
  migrate(): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]>;
  /** Streams result rows (JSONEachRow) in order. */
  stream<T = Record<string, unknown>>(sql: string, params?: QueryParams): AsyncIterable<T>;
  /** Runs a statement that returns no rows (DDL, INSERT … SELECT). */
  command(sql: string, params?: QueryParams): Promise<void>;
  insert(batch: InsertBatch): Promise<void>;
  check(): Promise<void>;
  close(): Promise<void>;
}
