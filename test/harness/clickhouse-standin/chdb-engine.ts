import { dirname, join } from 'node:path';
import type { Session } from 'chdb';
import { failure, toClickhouseFailure } from './clickhouse-errors';

type ChdbModule = typeof import('chdb');

/** The native calls of chdb's addon this engine uses (see `bindsAsAServer`). */
interface NativeChdb {
  StreamQuery(connection: unknown, sql: string, format: string, params?: Record<string, string>): unknown;
  StreamFetch(handle: unknown): Promise<{ done: boolean; bytes: Uint8Array; numRows: number }>;
  StreamCancel(handle: unknown): void;
  QueryAsyncConnection(connection: unknown, sql: string, format: string, params?: Record<string, string>): Promise<OneShotResult>;
}

export interface OneShotResult {
  readonly bytes: Uint8Array;
  readonly elapsed: number;
  readonly rowsRead: number;
  readonly bytesRead: number;
}

/**
 * A server binds `param_<name>` values as the text it received (escaped
 * form). chdb's `Session` API takes JS values and escapes strings again, so
 * `it\'s` would arrive as `it\\'s`: the engine goes through chdb's addon
 * (the calls `Session` itself makes) with the received text, on the
 * session's own connection. The addon is outside chdb's `exports` map,
 * hence the path.
 */
function bindsAsAServer(): NativeChdb {
  const loader = require(join(dirname(require.resolve('chdb')), 'dist', 'loader.js')) as { loadNative(): NativeChdb };
  return loader.loadNative();
}

const STREAMING_UNSUPPORTED = /Streaming query is not supported/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** What a statement runs with: the request's database and settings. */
export interface StatementContext {
  readonly database: string;
  readonly settings: Readonly<Record<string, string>>;
}

/** Result chunks of a statement; `cancel` stops it when the client went away. */
export interface RunningStatement {
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Rows and bytes the engine read, once the statement has run (one-shot statements only). */
  readonly summary?: OneShotResult;
  cancel(): void;
}

/**
 * chDB on one data directory, shared by every HTTP request of this process.
 *
 * Concurrency (what chDB requires): every request leases a native connection
 * of its own, so streams and statements run in parallel (one connection runs
 * one stream at a time; a query on it would kill its stream). A connection is
 * set up for a database and settings (`USE`, `SET`) and idle ones are kept
 * per such context for reuse. One-shot statements WITH parameters run one at
 * a time per process: chDB's parameter binder is not safe under concurrency
 * for them (streams bind per connection). The same rules as the product's
 * `ChdbExecutor`.
 */
export class ChdbEngine {
  readonly #chdb: ChdbModule;
  readonly #native: NativeChdb;
  readonly #path: string;
  readonly #idle = new Map<string, Session[]>();
  readonly #leased = new Set<Session>();
  #paramChain: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(path: string) {
    this.#chdb = require('chdb') as ChdbModule;
    this.#native = bindsAsAServer();
    this.#path = path;
  }

  /**
   * Runs `sql`: streamed when `streamable` (the caller knows the output
   * format and whether data is inline) and chDB can stream it (SELECT and the
   * like), else one-shot (DDL, INSERT, SHOW).
   * Errors before the first chunk reject here; later ones fail `chunks`.
   */
  async run(sql: string, params: Record<string, string>, context: StatementContext, format: string, streamable: boolean): Promise<RunningStatement> {
    const session = await this.#acquire(context);
    let handle: unknown;
    if (streamable) {
      try {
        handle = this.#native.StreamQuery(session.connection, sql, format, params);
      } catch (err) {
        if (!(err instanceof Error && STREAMING_UNSUPPORTED.test(err.message))) {
          this.#release(context, session, true);
          throw toClickhouseFailure(err);
        }
      }
    }
    if (handle === undefined) {
      try {
        const result = await this.#oneShot(session, sql, params, format);
        return { chunks: once(result.bytes), summary: result, cancel: () => undefined };
      } catch (err) {
        throw toClickhouseFailure(err);
      } finally {
        this.#release(context, session, true);
      }
    }
    return this.#streamed(handle, session, context);
  }

  /** Opens a first connection, so the engine is loaded and the directory bound before the server says it is ready. */
  async warmUp(): Promise<void> {
    const context = { database: 'default', settings: {} };
    const session = await this.#acquire(context);
    try {
      await this.#native.QueryAsyncConnection(session.connection, 'SELECT 1', 'TabSeparated');
    } finally {
      this.#release(context, session, true);
    }
  }

  /** Closes every connection (a running stream then fails) and waits until chDB has let go of the directory. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const session of [...[...this.#idle.values()].flat(), ...this.#leased]) session.close();
    this.#idle.clear();
    this.#leased.clear();
    await this.#chdb.drainPending();
  }

  async #streamed(handle: unknown, session: Session, context: StatementContext): Promise<RunningStatement> {
    const native = this.#native;
    let finished = false;
    let fetching: Promise<unknown> | undefined;
    // Destroying a handle while a fetch runs on it pulls it out from under the worker: wait for the fetch.
    const finish = (reusable: boolean) => {
      if (finished) return;
      finished = true;
      const destroy = () => {
        try {
          native.StreamCancel(handle);
        } catch {
          // already released by the engine
        }
        this.#release(context, session, reusable);
      };
      if (fetching) void fetching.then(destroy, destroy);
      else destroy();
    };
    const fetch = async () => {
      fetching = native.StreamFetch(handle);
      try {
        return await (fetching as ReturnType<NativeChdb['StreamFetch']>);
      } finally {
        fetching = undefined;
      }
    };
    let first: Awaited<ReturnType<typeof fetch>>;
    try {
      first = await fetch();
    } catch (err) {
      finish(false);
      throw toClickhouseFailure(err);
    }
    const closed = () => this.#closed;
    async function* chunks(): AsyncGenerator<Uint8Array> {
      let next = first;
      try {
        while (!next.done) {
          yield next.bytes;
          if (closed()) throw failure(1001, 'STD_EXCEPTION', 'the ClickHouse stand-in is shutting down');
          try {
            next = await fetch();
          } catch (err) {
            throw toClickhouseFailure(err);
          }
        }
        finish(true);
      } finally {
        finish(false);
      }
    }
    return { chunks: chunks(), cancel: () => finish(false) };
  }

  #oneShot(session: Session, sql: string, params: Record<string, string>, format: string): Promise<OneShotResult> {
    const run = () => this.#native.QueryAsyncConnection(session.connection, sql, format, params);
    if (Object.keys(params).length === 0) return run();
    const result = this.#paramChain.then(run);
    this.#paramChain = result.catch(() => undefined);
    return result;
  }

  async #acquire(context: StatementContext): Promise<Session> {
    if (this.#closed) throw failure(1001, 'STD_EXCEPTION', 'the ClickHouse stand-in is shutting down');
    const session = this.#idle.get(contextKey(context))?.pop() ?? (await this.#open(context));
    this.#leased.add(session);
    return session;
  }

  /**
   * Keeps a connection for its context (4 at most per context, 32 in all:
   * the least recently used context's go first, e.g. those of a dropped
   * test database).
   */
  #release(context: StatementContext, session: Session, reusable: boolean): void {
    this.#leased.delete(session);
    const key = contextKey(context);
    const idle = this.#idle.get(key) ?? [];
    if (!reusable || this.#closed || idle.length >= 4) {
      session.close();
      return;
    }
    this.#idle.delete(key);
    this.#idle.set(key, [...idle, session]);
    let total = [...this.#idle.values()].reduce((sum, sessions) => sum + sessions.length, 0);
    for (const [oldest, sessions] of this.#idle) {
      if (total <= 32) break;
      this.#idle.delete(oldest);
      for (const stale of sessions) stale.close();
      total -= sessions.length;
    }
  }

  /** A connection in the request's database with its settings: an unknown one fails as the server would (81, 115). */
  async #open(context: StatementContext): Promise<Session> {
    const session = new this.#chdb.Session(this.#path);
    try {
      if (!IDENTIFIER.test(context.database)) throw failure(81, 'UNKNOWN_DATABASE', `Database ${JSON.stringify(context.database)} does not exist`);
      await session.queryAsync(`USE ${context.database}`);
      // `readonly` last: once set, the connection may change no other setting.
      const settings = Object.entries(context.settings).sort(([a], [b]) => Number(a === 'readonly') - Number(b === 'readonly'));
      for (const [name, value] of settings) {
        // Names are checked identifiers; the value is a string literal, which ClickHouse converts to the setting's type.
        await session.queryAsync(`SET ${name} = '${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`);
      }
      return session;
    } catch (err) {
      session.close();
      throw toClickhouseFailure(err);
    }
  }
}

function contextKey(context: StatementContext): string {
  return JSON.stringify([context.database, Object.entries(context.settings).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  if (bytes.length > 0) yield bytes;
}
