import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { drainPending } from 'chdb';
import { createChdbConnection } from 'chdb/connection';
import { ChdbExecutor } from './chdb-executor';
import { ClickhouseHttpExecutor, type ClickhouseConnection } from './clickhouse-http-executor';
import { describeExplorerStoreContract } from './explorer-store.contract-spec';
import { ExplorerStoreError } from './explorer-store-error';
import { EXPLORER_DDL_DIR } from './tables';

// chDB binds one data directory per process and jest runs the next file in
// the same worker: every block below closes its stores before the next opens.
const tempDir = (label: string): string => mkdtempSync(join(tmpdir(), `bpc-${label}-`));
const removeDir = (dir: string) => async (): Promise<void> => rmSync(dir, { recursive: true, force: true });

// chdb/connection implements @clickhouse/client-common@1.23.0's Connection;
// @clickhouse/client@1.23.1 bundles its own copy whose settings type differs
// slightly, hence the cast (the runtime contract is the same).
const chdbConnection = (dir: string) => (): ClickhouseConnection =>
  createChdbConnection({ path: dir }) as unknown as ClickhouseConnection;

describeExplorerStoreContract('ChdbExecutor', async () => {
  const dir = tempDir('chdb-contract');
  return { store: new ChdbExecutor({ path: dir, ddlDir: EXPLORER_DDL_DIR }), dispose: removeDir(dir) };
});

describeExplorerStoreContract(
  'ClickhouseHttpExecutor over chdb/connection',
  async () => {
    const dir = tempDir('chdb-connection-contract');
    return {
      store: new ClickhouseHttpExecutor({ ddlDir: EXPLORER_DDL_DIR, connection: chdbConnection(dir) }),
      dispose: async () => {
        await drainPending();
        await removeDir(dir)();
      },
    };
  },
  { streamsLazily: false },
);

describe('ClickhouseHttpExecutor lifecycle', () => {
  it('needs a url or a connection, and rejects calls once closed', async () => {
    expect(() => new ClickhouseHttpExecutor({})).toThrow(RangeError);
    const dir = tempDir('chdb-connection-closed');
    const store = new ClickhouseHttpExecutor({ ddlDir: EXPLORER_DDL_DIR, connection: chdbConnection(dir) });
    try {
      await store.check();
    } finally {
      await store.close();
      await drainPending();
      rmSync(dir, { recursive: true, force: true });
    }
    await expect(store.query('SELECT 1')).rejects.toThrow(/closed/);
    await expect(store.close()).resolves.toBeUndefined();
  });
});

// Over real HTTP (a ClickHouse server, or the tests' stand-in): clickhouse-http-executor.int-spec.ts.

describe('ChdbExecutor in one process', () => {
  let dir: string;
  let store: ChdbExecutor;

  beforeAll(async () => {
    dir = tempDir('chdb-process');
    store = new ChdbExecutor({ path: dir, ddlDir: EXPLORER_DDL_DIR });
    await store.migrate();
  });

  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps the event loop free while heavy statements run', async () => {
    // One engine thread each: the statements only need to outlast a few turns of the loop.
    const heavy = 'SELECT sum(cityHash64(number)) AS s FROM numbers({n:UInt64}) SETTINGS max_threads = 1';
    const query = store.query(heavy, { n: 500_000_000 });
    expect(await firstOf(query, loopTurns(5))).toBe('loop');
    await query;
    const stream = drain(store.stream('SELECT number FROM numbers({n:UInt64}) ORDER BY number DESC LIMIT 3 SETTINGS max_threads = 1', { n: 300_000_000 }));
    expect(await firstOf(stream, loopTurns(5))).toBe('loop');
    await stream;
  }, 60_000);

  it('shares one data directory between executors and refuses a second directory', async () => {
    const sameDir = new ChdbExecutor({ path: dir, ddlDir: EXPLORER_DDL_DIR });
    const otherDir = tempDir('chdb-other');
    const other = new ChdbExecutor({ path: otherDir });
    try {
      await expect(sameDir.query('SELECT count() AS n FROM bot_requests')).resolves.toEqual([{ n: 0 }]);
      await expect(other.check()).rejects.toThrow(ExplorerStoreError);
      await expect(other.check()).rejects.toThrow(/one data directory per process/);
    } finally {
      await sameDir.close();
      await other.close();
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  it('opens another directory once every executor on the first is closed, and keeps data on disk', async () => {
    await store.insert({ table: 'search_page_daily', rows: [searchRow('kept')], token: 'durable-1' });
    await store.close();

    const otherDir = tempDir('chdb-next');
    const other = new ChdbExecutor({ path: otherDir });
    try {
      await expect(other.query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
    } finally {
      await other.close();
      rmSync(otherDir, { recursive: true, force: true });
    }

    store = new ChdbExecutor({ path: dir, ddlDir: EXPLORER_DDL_DIR });
    await expect(store.query('SELECT url FROM search_page_daily FINAL')).resolves.toEqual([{ url: 'https://example.com/kept' }]);
  });

  it('fails a stream that is open when the store closes, instead of ending it quietly', async () => {
    const closing = new ChdbExecutor({ path: dir, ddlDir: EXPLORER_DDL_DIR });
    const rows = closing.stream('SELECT number FROM numbers(10000000)')[Symbol.asyncIterator]();
    await rows.next();
    await closing.close();
    await expect(drainIterator(rows)).rejects.toThrow(/closed while a stream was open/);
    await expect(closing.query('SELECT 1')).rejects.toThrow(/closed/);
    await expect(closing.close()).resolves.toBeUndefined();
  });

  it('runs statements chDB cannot stream through query()', async () => {
    const rows = await store.query<{ name: string }>('SHOW TABLES');
    expect(rows.map((r) => r.name)).toEqual(expect.arrayContaining(['bot_requests', 'search_page_daily', 'search_query_daily']));
  });
});

function searchRow(page: string): Record<string, unknown> {
  return {
    website: 'example',
    date: '2024-03-01',
    url: `https://example.com/${page}`,
    clicks: 3,
    impressions: 100,
    position: 4.2,
    imported_at: new Date('2024-03-02T00:00:00Z'),
  };
}

/**
 * Resolves once 10 ms timers have fired `turns` times. A statement that held
 * the loop would settle before the first of them: its work would be done by
 * the time the call returned. Counting turns rather than timing the gaps
 * between them holds on a loaded machine, where a gap measures how long the
 * kernel left this thread waiting for a core, not the loop.
 */
function loopTurns(turns: number): Promise<'loop'> {
  return new Promise((resolve) => {
    let fired = 0;
    const timer = setInterval(() => {
      fired += 1;
      if (fired < turns) return;
      clearInterval(timer);
      resolve('loop');
    }, 10);
  });
}

/** 'statement' when `statement` settles first, else what `other` resolves to. */
function firstOf<T>(statement: Promise<unknown>, other: Promise<T>): Promise<T | 'statement'> {
  return Promise.race([statement.then(() => 'statement' as const, () => 'statement' as const), other]);
}

async function drain(iterable: AsyncIterable<unknown>): Promise<void> {
  for await (const item of iterable) void item;
}

async function drainIterator(iterator: AsyncIterator<unknown>): Promise<void> {
  while (!(await iterator.next()).done);
}
