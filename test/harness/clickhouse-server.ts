import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RunningEngine } from './engines';

const root = path.resolve(__dirname, '..', '..');
const MAIN = 'test/harness/clickhouse-standin/main.ts';
/** Node's arguments: the sources through the swc hook, or the built stand-in when this file runs from `dist/` (a bench). */
const STANDIN_ARGS = __filename.endsWith('.ts') ? ['-r', './scripts/swc-register.cjs', MAIN] : [path.join(__dirname, 'clickhouse-standin', 'main.js')];

export interface ClickhouseServerOptions {
  /** Require these credentials (Basic auth or `X-ClickHouse-User`/`-Key`); any request is accepted without. */
  readonly username?: string;
  readonly password?: string;
  /** Reuse a data directory (restart after a stop); default: a temporary one, removed on stop. */
  readonly dataDir?: string;
  /** Readiness deadline (engine load included); 30 s by default. */
  readonly timeoutMs?: number;
}

/** The ClickHouse stand-in a test started (see {@link startClickhouseServer}). */
export interface RunningClickhouseServer extends RunningEngine {
  /** `http://127.0.0.1:<port>`: give it to `ClickhouseHttpExecutor`'s `url` (or `CLICKHOUSE_URL` of a spawned app). */
  readonly url: string;
  /** Creates a database (if missing) and returns its name: one per suite or per replica group keeps tests apart. */
  createDatabase(name: string): Promise<string>;
  /** Drops a database and everything in it. */
  dropDatabase(name: string): Promise<void>;
  /** SIGTERM, wait for exit (SIGKILL after 5 s), remove the temporary data directory. */
  stop(): Promise<void>;
}

/**
 * Starts the ClickHouse stand-in (test/harness/clickhouse-standin): chDB in a
 * process of its own behind ClickHouse's HTTP interface, so several processes
 * (replicas, or a test and the apps it spawned) share one explorer over real
 * HTTP. It listens on a free loopback port it picks itself and is ready once
 * it has printed that port (the engine is loaded by then).
 *
 * ```ts
 * const clickhouse = await startClickhouseServer();
 * const database = await clickhouse.createDatabase(`replicas_${process.pid}`);
 * // apps: CLICKHOUSE_URL=clickhouse.url, database=database
 * await clickhouse.stop();
 * ```
 *
 * A test stand-in, not ClickHouse: docs/testing-clickhouse-standin.md lists its subset.
 */
export async function startClickhouseServer(options: ClickhouseServerOptions = {}): Promise<RunningClickhouseServer> {
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), 'bpc-clickhouse-standin-'));
  const child = spawn(process.execPath, STANDIN_ARGS, {
    cwd: root,
    env: {
      ...process.env,
      CLICKHOUSE_STANDIN_PATH: dataDir,
      // Its stdin is this process's pipe: the stand-in stops when the test process dies without stopping it.
      CLICKHOUSE_STANDIN_STOP_WITH_STDIN: '1',
      // A temporary directory goes with the process, even when the test died first.
      ...(options.dataDir ? {} : { CLICKHOUSE_STANDIN_REMOVE_DATA: '1' }),
      ...(options.username !== undefined ? { CLICKHOUSE_STANDIN_USER: options.username, CLICKHOUSE_STANDIN_PASSWORD: options.password ?? '' } : {}),
    },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const removeData = () => {
    if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
  };
  let port: number;
  try {
    port = await readPort(child, options.timeoutMs ?? 30_000, () => output);
  } catch (err) {
    child.kill('SIGKILL');
    await exited;
    removeData();
    throw err;
  }
  child.stdout!.resume();
  const url = `http://127.0.0.1:${port}`;
  const credentials = options.username !== undefined ? { 'X-ClickHouse-User': options.username, 'X-ClickHouse-Key': options.password ?? '' } : {};
  const command = async (sql: string): Promise<void> => {
    const response = await fetch(`${url}/`, { method: 'POST', body: sql, headers: credentials });
    if (!response.ok) throw new Error(`ClickHouse stand-in refused ${sql}: ${await response.text()}`);
  };
  return {
    url,
    port,
    pid: child.pid ?? -1,
    createDatabase: async (name) => {
      await command(`CREATE DATABASE IF NOT EXISTS ${databaseName(name)}`);
      return name;
    },
    dropDatabase: (name) => command(`DROP DATABASE IF EXISTS ${databaseName(name)}`),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) {
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.kill('SIGTERM');
        await exited;
        clearTimeout(timer);
      }
      removeData();
    },
  };
}

function databaseName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new RangeError(`invalid database name ${JSON.stringify(name)}`);
  return name;
}

/** The port from the stand-in's first stdout line, or its stderr when it exits or stays silent first. */
function readPort(child: ReturnType<typeof spawn>, timeoutMs: number, stderr: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => fail(`printed no port within ${timeoutMs} ms`), timeoutMs);
    function fail(why: string): void {
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data');
      reject(new Error(`ClickHouse stand-in ${why}:\n${stderr().slice(-3000)}`));
    }
    const onExit = (code: number | null, signal: string | null) => fail(`exited with ${code ?? signal}`);
    child.once('error', (err) => fail(`could not start (${err.message})`));
    child.once('exit', onExit);
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const line = /^(\{.*\})\n/.exec(seen);
      if (!line) return;
      clearTimeout(timer);
      child.stdout!.removeAllListeners('data');
      child.off('exit', onExit);
      resolve((JSON.parse(line[1]) as { port: number }).port);
    });
  });
}
