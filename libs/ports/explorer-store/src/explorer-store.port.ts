export const EXPLORER_STORE = Symbol('EXPLORER_STORE');

/**
 * Bound parameters: `{name:Type}` placeholders in the SQL are filled
 * server-side from these values, never spliced into the text. A `Date` is sent
 * as a Unix timestamp with milliseconds (time-zone agnostic); pass `bigint`
 * (or a string) for 64-bit integers beyond 2^53.
 */
export type QueryParams = Readonly<Record<string, unknown>>;

/**
 * Byte formats `streamRaw` can produce. Only formats whose chunks concatenate
 * into one valid document are allowed (no Parquet, no single-document JSON).
 */
export type RawFormat =
  | 'CSV'
  | 'CSVWithNames'
  | 'TabSeparated'
  | 'TabSeparatedWithNames'
  | 'JSONEachRow'
  | 'JSONCompactEachRow';

/**
 * Rows already written as JSON, one object per line (each line ending in a
 * newline), such as events as the log holds them for an intake table: the
 * adapter sends the bytes as they are. In a paired bench, parsing, mapping
 * and serialising bot requests again made their projection 30–50 % slower,
 * and holding an object per row until the insert instead of a batch's bytes
 * 30–40 % (bench/RESULTS.md).
 */
export class JsonLines {
  constructor(
    readonly bytes: Buffer,
    readonly count: number,
  ) {}

  /** Stored JSON objects, one line each, copied into a buffer of their own (the one they come from may be large and shared). */
  static of(jsons: readonly Buffer[]): JsonLines {
    const bytes = Buffer.allocUnsafe(jsons.reduce((sum, json) => sum + json.length + 1, 0));
    let at = 0;
    for (const json of jsons) {
      at += json.copy(bytes, at);
      bytes[at++] = 0x0a;
    }
    return new JsonLines(bytes, jsons.length);
  }
}

/** What an insert takes, in order: row objects (column name to value, a `Date` for a DateTime64 column, a `bigint` beyond 2^53), or rows already written as JSON. */
export type Row = Readonly<Record<string, unknown>> | JsonLines;

/** How many rows `rows` hold. */
export function rowCount(rows: readonly Row[]): number {
  let count = 0;
  for (const row of rows) count += row instanceof JsonLines ? row.count : 1;
  return count;
}

export interface InsertBatch {
  readonly table: string;
  /** The adapter serialises them for its engine. */
  readonly rows: readonly Row[];
  /**
   * Deduplication token: inserting the same token twice into the same table
   * stores the rows once. Derive it from the batch's content or log positions.
   */
  readonly token: string;
}

/** What `writeFile` produced. */
export interface WrittenFile {
  /** Result rows in the file; the header line of a `…WithNames` format is not a row. */
  readonly rows: number;
  readonly bytes: number;
}

/**
 * Executes ClickHouse SQL (chDB in-process or a ClickHouse server); both
 * adapters run the same SQL and schema, in the `default` database unless the
 * server adapter is configured otherwise.
 *
 * Guarantees: queries never block the event loop; `stream` and `streamRaw`
 * yield without buffering the whole result, and a query issued while a stream
 * is open runs normally; `insert` is idempotent per token (within the table's
 * `non_replicated_deduplication_window`). Results use pinned settings on both
 * adapters: `session_timezone = 'UTC'`, and 64-bit integers come back as JSON
 * numbers (cast with `toString()` in SQL where exactness beyond 2^53 matters).
 * SQL passed in must not carry a `FORMAT` clause. Failures reject with
 * `ExplorerStoreError`.
 */
export interface ExplorerStore {
  /**
   * True when the engine runs in this process (chDB): its memory and CPU are
   * this process's, so statements carry bounds and priorities a server sets
   * itself (and an older server may not know).
   */
  readonly inProcess: boolean;
  /** Applies the DDL files of the store's `ddlDir` in name order (idempotent). */
  migrate(): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]>;
  /** Streams result rows (JSONEachRow) in order. */
  stream<T = Record<string, unknown>>(sql: string, params?: QueryParams): AsyncIterable<T>;
  /**
   * Streams the engine's own bytes in `format` (e.g. a CSV export) without
   * parsing rows in JS. A `…WithNames` format carries its header once.
   */
  streamRaw(sql: string, params: QueryParams | undefined, format: RawFormat): AsyncIterable<Uint8Array>;
  /**
   * Writes the result in `format` (one header for a `…WithNames` format) to
   * the local file `path`, created or truncated, without holding it in
   * memory: chDB's engine writes the file itself, a server's response is
   * streamed to it. Rows are counted by the engine where it reports them. The
   * file is not fsync'd. A failing query rejects with `ExplorerStoreError`, a
   * file that cannot be written with another error; either way the file may
   * hold part of the result (the caller removes it).
   */
  writeFile(sql: string, params: QueryParams | undefined, format: RawFormat, path: string): Promise<WrittenFile>;
  /** Runs a statement that returns no rows (DDL, INSERT … SELECT). */
  command(sql: string, params?: QueryParams): Promise<void>;
  insert(batch: InsertBatch): Promise<void>;
  check(): Promise<void>;
  close(): Promise<void>;
}
