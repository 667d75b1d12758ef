import { open, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { ChdbQueryStream, ChdbResult, Session } from 'chdb';
import { type LogSink, silentLog } from '@bpc/support';
import { ChdbSessionPool } from './chdb-session-pool';
import { applyDdl, ddlDirOf } from './ddl-migration';
import { PINNED_QUERY_SETTINGS, assertDedupToken, assertTableName, insertStatement, quoteStringLiteral } from './engine-settings';
import { ExplorerStoreError, toExplorerStoreError } from './explorer-store-error';
import type { ExplorerStore, InsertBatch, QueryParams, RawFormat, WrittenFile } from './explorer-store.port';
import { InsertSpool } from './insert-spool';
import { parseJsonEachRow, toJsonEachRow } from './json-each-row';
import { normaliseQueryParams } from './query-params';
import { assertRawFormat, createHeaderDeduplicator } from './raw-formats';
import { assertSingleStatement } from './sql-statements';

export interface ChdbExecutorOptions {
  /** Data directory (created if missing). Only one per process: see {@link ChdbExecutor}. */
  readonly path: string;
  /** Directory of the `*.sql` DDL files `migrate` applies (the explorer's: `EXPLORER_DDL_DIR`); none for an executor that never migrates. */
  readonly ddlDir?: string;
  readonly log?: LogSink;
  /**
   * Every connection of this executor read-only, with bounded results and
   * running time: the engine refuses writes, DDL and any setting change
   * (`readonly = 1`), whatever the SQL says. For statements written by
   * people (the operator's SQL console); `migrate` and `insert` then fail.
   */
  readonly readOnly?: ReadOnlyLimits;
}

export interface ReadOnlyLimits {
  /** More result rows fail the statement (`max_result_rows`, overflow mode `throw`). */
  readonly maxResultRows: number;
  /** The engine stops the statement past this (`max_execution_time`). */
  readonly maxExecutionMs: number;
}

// Settings given at connect time apply to every statement of the connection.
const CONNECTION_ARGS = connectionArgs(PINNED_QUERY_SETTINGS);

function connectionArgs(settings: Readonly<Record<string, string | number>>): string[] {
  return Object.entries(settings).map(([name, value]) => `--${name}=${value}`);
}

/** `readonly` comes last: once it is set, the connection may not change any other setting. */
function readOnlyConnectionArgs(limits: ReadOnlyLimits): string[] {
  return connectionArgs({
    ...PINNED_QUERY_SETTINGS,
    max_result_rows: limits.maxResultRows,
    result_overflow_mode: 'throw',
    max_execution_time: limits.maxExecutionMs / 1000,
    readonly: 1,
  });
}
const STREAMING_UNSUPPORTED = /Streaming query is not supported/;
/** Engine errors of writing an output file (not of running the query): `writeFile` reports them as file errors. */
const FILE_WRITE_ERRORS = new Set(['NOT_ENOUGH_SPACE', 'CANNOT_WRITE_TO_FILE_DESCRIPTOR', 'CANNOT_OPEN_FILE', 'CANNOT_FSYNC', 'CANNOT_TRUNCATE_FILE', 'CANNOT_CLOSE_FILE', 'FILE_ALREADY_EXISTS']);
const decoder = new TextDecoder();
/**
 * Inserts (the projections' writes) in this process take CPU from serving
 * the bots, so they yield it:
 * - they parse in one thread: at the projector's batch sizes (about a second
 *   of bot requests) splitting the input across parser threads cost the
 *   engine about 10 % more CPU per row;
 * - their threads, and those of the views they feed, run at the lowest CPU
 *   priority (nice 19): while bots keep every core busy, rows reach the
 *   explorer later (the log holds them; the projection catches up as soon as
 *   a core is idle) instead of the bots being served more slowly. The engine
 *   applies it where the process may change thread priorities
 *   (CAP_SYS_NICE); elsewhere it is a no-op.
 * A ClickHouse server keeps its defaults.
 */
const CHDB_INSERT_SETTINGS = { input_format_parallel_parsing: 0, os_threads_nice_value_query: 19, os_threads_nice_value_materialized_view: 19 } as const;

/**
 * Explorer store on chDB, the ClickHouse engine inside this process.
 *
 * Process constraint: libchdb binds ONE data directory per process. Any number
 * of executors may share a path; opening a second path fails with an
 * `ExplorerStoreError` until every executor on the first is closed (`close()`
 * waits until the engine has released the directory). Test suites therefore
 * close their executor in `afterAll`: jest runs the next test file in the same
 * worker process.
 *
 * Concurrency: every call runs on the libuv pool, never on the event loop.
 * Each operation leases its own native connection, so a query or insert issued
 * while a stream is open runs normally (on one connection it would kill the
 * stream). Reads run as chDB streams, which bind parameters per connection and
 * run in parallel. Statements chDB cannot stream (DDL, INSERT … SELECT, SHOW)
 * run one-shot; chDB runs one-shot statements WITH parameters one at a time
 * per process (its binder is not safe under concurrency). `writeFile` is such
 * a statement (`INTO OUTFILE`): while it runs, other parameterised one-shot
 * statements wait; streams and inserts do not.
 */
export class ChdbExecutor implements ExplorerStore {
  readonly inProcess = true;
  readonly #pool: ChdbSessionPool;
  readonly #ddlDir: string | undefined;
  readonly #log: LogSink;
  readonly #spool: InsertSpool;

  constructor(options: ChdbExecutorOptions) {
    this.#pool = new ChdbSessionPool(options.path, options.readOnly ? readOnlyConnectionArgs(options.readOnly) : CONNECTION_ARGS);
    this.#spool = new InsertSpool(join(this.#pool.path, 'insert-spool'));
    this.#ddlDir = options.ddlDir;
    this.#log = options.log ?? silentLog;
  }

  async migrate(): Promise<void> {
    await applyDdl(ddlDirOf(this.#ddlDir), (sql) => this.command(sql), this.#log);
  }

  async query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]> {
    const rows: T[] = [];
    for await (const chunk of this.#chunks(sql, params, 'JSONEachRow')) {
      for (const row of parseJsonEachRow<T>(decoder.decode(chunk))) rows.push(row);
    }
    return rows;
  }

  async *stream<T = Record<string, unknown>>(sql: string, params?: QueryParams): AsyncIterable<T> {
    for await (const chunk of this.#chunks(sql, params, 'JSONEachRow')) {
      yield* parseJsonEachRow<T>(decoder.decode(chunk));
    }
  }

  async *streamRaw(sql: string, params: QueryParams | undefined, format: RawFormat): AsyncIterable<Uint8Array> {
    const dedupeHeader = createHeaderDeduplicator(assertRawFormat(format));
    for await (const chunk of this.#chunks(sql, params, format)) yield dedupeHeader(chunk);
  }

  /**
   * The engine writes the file itself (`INTO OUTFILE … TRUNCATE`, no
   * compression): no byte of the result passes through JavaScript, and the
   * row count is the engine's. Not streamed: chDB's streaming path
   * stops an `INTO OUTFILE` after its first blocks.
   */
  async writeFile(sql: string, params: QueryParams | undefined, format: RawFormat, path: string): Promise<WrittenFile> {
    assertSingleStatement(sql);
    const output = assertRawFormat(format);
    const target = resolve(path);
    // Created here first, so a path that cannot be written fails as a file error, as with the server adapter.
    await (await open(target, 'w')).close();
    const statement = `${sql.trim().replace(/;+$/, '')}\nINTO OUTFILE ${quoteStringLiteral(target)} TRUNCATE COMPRESSION 'none' FORMAT ${output}`;
    let result: ChdbResult;
    try {
      result = await this.#withSession((session) => this.#oneShot(session, statement, params, format));
    } catch (err) {
      const error = toExplorerStoreError(err);
      if (error.clickhouseType !== undefined && FILE_WRITE_ERRORS.has(error.clickhouseType)) throw new Error(`cannot write ${target}: ${error.message}`, { cause: error });
      throw error;
    }
    return { rows: result.rowsRead, bytes: (await stat(target)).size };
  }

  async command(sql: string, params?: QueryParams): Promise<void> {
    await this.#withSession((session) => this.#oneShot(session, sql, params, 'JSONEachRow'));
  }

  /** The rows reach the engine through a file (see `InsertSpool`). */
  async insert(batch: InsertBatch): Promise<void> {
    const table = assertTableName(batch.table);
    const token = assertDedupToken(batch.token);
    const chunks = toJsonEachRow(batch.rows);
    if (chunks.length === 0) return;
    const statement = (file: string) => insertStatement(table, token, { file, settings: CHDB_INSERT_SETTINGS });
    // A rows file that cannot be written (a full disk) fails the insert like an engine error.
    await this.#withSession((session) => this.#spool.withRowsFile(chunks, (file) => this.#oneShot(session, statement(file), undefined, 'JSONEachRow')));
  }

  async check(): Promise<void> {
    await this.query('SELECT 1');
  }

  async close(): Promise<void> {
    await this.#pool.close();
    this.#log.info({ path: this.#pool.path }, 'chDB explorer store closed');
  }

  /**
   * Result chunks (whole blocks in `format`) from a leased connection. A
   * connection whose stream was abandoned or failed is closed, not reused.
   */
  async *#chunks(sql: string, params: QueryParams | undefined, format: string): AsyncGenerator<Uint8Array> {
    const session = this.#pool.acquire();
    let drained = false;
    try {
      const stream = startStream(session, sql, params, format);
      if (stream === undefined) yield (await this.#oneShot(session, sql, params, format)).bytes();
      else for await (const chunk of stream) yield chunk.raw();
      // Closing a session ends its stream like a normal end: say so, or an
      // export would be silently truncated.
      if (this.#pool.closed) throw new ExplorerStoreError('explorer store closed while a stream was open');
      drained = true;
    } catch (err) {
      throw toExplorerStoreError(err);
    } finally {
      this.#pool.release(session, drained);
    }
  }

  #oneShot(session: Session, sql: string, params: QueryParams | undefined, format: string): Promise<ChdbResult> {
    assertSingleStatement(sql);
    const bound = normaliseQueryParams(params);
    return Object.keys(bound).length > 0
      ? session.queryBindAsync(sql, bound, { format })
      : session.queryAsync(sql, { format });
  }

  async #withSession<T>(work: (session: Session) => Promise<T>): Promise<T> {
    const session = this.#pool.acquire();
    try {
      return await work(session);
    } catch (err) {
      throw toExplorerStoreError(err);
    } finally {
      this.#pool.release(session, true);
    }
  }
}

/** A bound stream, or undefined for statements chDB refuses to stream (refused before running). */
function startStream(
  session: Session,
  sql: string,
  params: QueryParams | undefined,
  format: string,
): ChdbQueryStream | undefined {
  try {
    return session.queryStreamBind(sql, normaliseQueryParams(params), { format });
  } catch (err) {
    if (err instanceof Error && STREAMING_UNSUPPORTED.test(err.message)) return undefined;
    throw err;
  }
}
