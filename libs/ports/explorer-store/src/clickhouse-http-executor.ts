import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  createClient,
  drainStream,
  type ClickHouseClient,
  type ClickHouseClientConfigOptions,
  type Logger,
} from '@clickhouse/client';
import { type LogSink, silentLog } from '@bpc/support';
import { writeFully } from '@bpc/durable-fs';
import { applyDdl, ddlDirOf } from './ddl-migration';
import { PINNED_QUERY_SETTINGS, assertDedupToken, assertTableName, insertStatement } from './engine-settings';
import { ExplorerStoreError, toExplorerStoreError } from './explorer-store-error';
import type { ExplorerStore, InsertBatch, QueryParams, RawFormat, WrittenFile } from './explorer-store.port';
import { toJsonEachRow } from './json-each-row';
import { normaliseQueryParams } from './query-params';
import { assertRawFormat, createRecordCounter } from './raw-formats';
import { assertSingleStatement } from './sql-statements';

/** The transport @clickhouse/client accepts in place of its HTTP connection. */
export type ClickhouseConnection = NonNullable<ClickHouseClientConfigOptions['connection']>;

export interface ClickhouseHttpExecutorOptions {
  /** Server address, e.g. `http://clickhouse:8123`; unused with `connection`. */
  readonly url?: string;
  /** Database the tables live in; it must exist. Defaults to `default`. */
  readonly database?: string;
  readonly username?: string;
  readonly password?: string;
  /** Directory of the `*.sql` DDL files `migrate` applies (the explorer's: `EXPLORER_DDL_DIR`); none for an executor that never migrates. */
  readonly ddlDir?: string;
  readonly log?: LogSink;
  /** Per-request timeout of the HTTP transport (client default 30 s). */
  readonly requestTimeoutMs?: number;
  /**
   * Builds the transport instead of HTTP, called once on first use: tests pass
   * `() => createChdbConnection({ path })` from `chdb/connection` so this
   * adapter's client code runs against an in-process engine.
   */
  readonly connection?: () => ClickhouseConnection;
}

/**
 * Explorer store on a ClickHouse server through @clickhouse/client (HTTP).
 * Parameters travel as `query_params` (bound by the server); rows stream from
 * the response body; inserts send JSONEachRow bytes with the deduplication
 * token in the statement's own SETTINGS clause. The client is created on first
 * use, so construction has no side effects.
 */
export class ClickhouseHttpExecutor implements ExplorerStore {
  readonly inProcess = false;
  readonly #options: ClickhouseHttpExecutorOptions;
  readonly #log: LogSink;
  #client: ClickHouseClient | undefined;
  #closed = false;

  constructor(options: ClickhouseHttpExecutorOptions) {
    if (!options.url && !options.connection) throw new RangeError('ClickhouseHttpExecutor needs a url or a connection');
    this.#options = options;
    this.#log = options.log ?? silentLog;
  }

  async migrate(): Promise<void> {
    await applyDdl(ddlDirOf(this.#options.ddlDir), (sql) => this.command(sql), this.#log);
  }

  query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]> {
    return this.#run(async (client) => {
      assertSingleStatement(sql);
      const result = await client.query({ query: sql, query_params: normaliseQueryParams(params), format: 'JSONEachRow' });
      return result.json<T>();
    });
  }

  async *stream<T = Record<string, unknown>>(sql: string, params?: QueryParams): AsyncIterable<T> {
    const result = await this.#run(async (client) => {
      assertSingleStatement(sql);
      return client.query({ query: sql, query_params: normaliseQueryParams(params), format: 'JSONEachRow' });
    });
    try {
      for await (const rows of result.stream<T>()) {
        for (const row of rows) yield row.json<T>();
      }
    } catch (err) {
      throw toExplorerStoreError(err);
    } finally {
      // Abandoning the response destroys the socket, which cancels the query.
      result.close();
    }
  }

  async *streamRaw(sql: string, params: QueryParams | undefined, format: RawFormat): AsyncIterable<Uint8Array> {
    const query = `${stripTrailingSemicolons(sql)}\nFORMAT ${assertRawFormat(format)}`;
    const result = await this.#run(async (client) => {
      assertSingleStatement(sql);
      return client.exec({ query, query_params: normaliseQueryParams(params) });
    });
    try {
      for await (const chunk of result.stream) yield chunk as Uint8Array;
    } catch (err) {
      throw toExplorerStoreError(err);
    } finally {
      result.stream.destroy();
    }
  }

  /** The response body goes to the file chunk by chunk; rows are counted from the bytes (the server reports none while streaming). */
  async writeFile(sql: string, params: QueryParams | undefined, format: RawFormat, path: string): Promise<WrittenFile> {
    const counter = createRecordCounter(assertRawFormat(format));
    const file = await open(path, 'w');
    let bytes = 0;
    try {
      for await (const chunk of this.streamRaw(sql, params, format)) {
        counter.add(chunk);
        await writeFully(file, chunk, bytes);
        bytes += chunk.length;
      }
    } finally {
      await file.close();
    }
    return { rows: counter.rows, bytes };
  }

  async command(sql: string, params?: QueryParams): Promise<void> {
    await this.#run(async (client) => {
      assertSingleStatement(sql);
      await client.command({ query: sql, query_params: normaliseQueryParams(params) });
    });
  }

  async insert(batch: InsertBatch): Promise<void> {
    const table = assertTableName(batch.table);
    const token = assertDedupToken(batch.token);
    const chunks = toJsonEachRow(batch.rows);
    if (chunks.length === 0) return;
    const values = Readable.from(chunks, { objectMode: false });
    await this.#run(async (client) => {
      const result = await client.exec({ query: insertStatement(table, token), values });
      await drainStream(result.stream);
    });
  }

  async check(): Promise<void> {
    await this.query('SELECT 1');
  }

  async close(): Promise<void> {
    this.#closed = true;
    const client = this.#client;
    this.#client = undefined;
    if (client) await client.close();
  }

  async #run<T>(work: (client: ClickHouseClient) => Promise<T>): Promise<T> {
    try {
      return await work(this.#ensureClient());
    } catch (err) {
      throw toExplorerStoreError(err);
    }
  }

  #ensureClient(): ClickHouseClient {
    if (this.#closed) throw new ExplorerStoreError('explorer store is closed');
    this.#client ??= createClient({
      url: this.#options.url,
      database: this.#options.database ?? 'default',
      username: this.#options.username,
      password: this.#options.password,
      request_timeout: this.#options.requestTimeoutMs,
      clickhouse_settings: { ...PINNED_QUERY_SETTINGS },
      log: { LoggerClass: loggerClassFor(this.#log) },
      connection: this.#options.connection?.(),
    });
    return this.#client;
  }
}

function stripTrailingSemicolons(sql: string): string {
  return sql.trim().replace(/;+$/, '');
}

// clickhouse-js instantiates its logger class itself (no arguments), so the
// class closes over this executor's sink; its own default writes to console.
function loggerClassFor(log: LogSink): new () => Logger {
  return class LogSinkLogger implements Logger {
    trace(): void {}
    debug(): void {}
    info({ module, message, args }: Parameters<Logger['info']>[0]): void {
      log.info({ module, ...args }, message);
    }
    warn({ module, message, args, err }: Parameters<Logger['warn']>[0]): void {
      log.warn({ module, ...args, err }, message);
    }
    error({ module, message, args, err }: Parameters<Logger['error']>[0]): void {
      log.error({ module, ...args, err }, message);
    }
  };
}
