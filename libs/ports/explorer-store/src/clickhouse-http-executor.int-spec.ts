import { clickhouseServerUrl, spawnNode, startClickhouseServer, type RunningClickhouseServer } from '@bpc/testing';
import { randomUUID } from 'node:crypto';
import { ClickhouseHttpExecutor } from './clickhouse-http-executor';
import { describeExplorerStoreContract } from './explorer-store.contract-spec';
import { EXPLORER_DDL_DIR } from './tables';

// Over real HTTP: a ClickHouse server when CLICKHOUSE_URL names one, else the
// tests' stand-in (chDB in a process of its own behind ClickHouse's HTTP
// interface, test/harness/clickhouse-standin). Every suite works in a database
// of its own, so files and runs sharing a server stay apart.
const givenUrl = clickhouseServerUrl();
let standIn: RunningClickhouseServer | undefined;
let serverUrl = givenUrl ?? '';

beforeAll(async () => {
  if (givenUrl) return;
  standIn = await startClickhouseServer();
  serverUrl = standIn.url;
});

afterAll(async () => {
  await standIn?.stop();
});

const newDatabase = (): string => `bpc_contract_${randomUUID().replace(/-/g, '')}`;

describeExplorerStoreContract(givenUrl ? 'ClickhouseHttpExecutor over CLICKHOUSE_URL' : 'ClickhouseHttpExecutor over the ClickHouse stand-in', async () => {
  const database = newDatabase();
  await onServer(serverUrl, `CREATE DATABASE IF NOT EXISTS ${database}`);
  return {
    store: new ClickhouseHttpExecutor({ ddlDir: EXPLORER_DDL_DIR, url: serverUrl, database }),
    dispose: () => onServer(serverUrl, `DROP DATABASE IF EXISTS ${database}`),
  };
});

describe('ClickhouseHttpExecutor: one server, several processes', () => {
  const database = newDatabase();
  let here: ClickhouseHttpExecutor;

  beforeAll(async () => {
    await onServer(serverUrl, `CREATE DATABASE IF NOT EXISTS ${database}`);
    here = new ClickhouseHttpExecutor({ ddlDir: EXPLORER_DDL_DIR, url: serverUrl, database });
    await here.migrate();
  });

  afterAll(async () => {
    await here.close();
    await onServer(serverUrl, `DROP DATABASE IF EXISTS ${database}`);
  });

  it('keeps each database to itself: the migration and every statement follow the `database` option', async () => {
    const other = newDatabase();
    await onServer(serverUrl, `CREATE DATABASE IF NOT EXISTS ${other}`);
    const elsewhere = new ClickhouseHttpExecutor({ ddlDir: EXPLORER_DDL_DIR, url: serverUrl, database: other });
    try {
      await elsewhere.migrate();
      await elsewhere.insert({ table: 'search_page_daily', rows: [searchRow('elsewhere')], token: 'isolation-1' });
      await expect(elsewhere.query('SELECT currentDatabase() AS db, count() AS n FROM search_page_daily')).resolves.toEqual([{ db: other, n: 1 }]);
      await expect(here.query("SELECT count() AS n FROM search_page_daily WHERE url LIKE '%elsewhere'")).resolves.toEqual([{ n: 0 }]);
      // The stand-in's data directory is fresh: nothing may have landed in \`default\` (a real server's may hold anything).
      if (standIn) await expect(onServerRows(serverUrl, 'SELECT count() AS n FROM default.search_page_daily')).rejects.toMatchObject({ clickhouseType: 'UNKNOWN_TABLE' });
    } finally {
      await elsewhere.close();
      await onServer(serverUrl, `DROP DATABASE IF EXISTS ${other}`);
    }
  });

  it('lets an executor in another process insert rows both read, and read the rows this one inserted', async () => {
    await here.insert({ table: 'search_page_daily', rows: [searchRow('from-parent')], token: 'parent-1' });
    const child = spawnNode(['-r', './scripts/swc-register.cjs', 'libs/ports/explorer-store/src/fixtures/insert-and-read.ts', serverUrl, database], {});
    expect(await child.exited).toBe(0);
    const seenByChild = JSON.parse(child.output().trim().split('\n').pop() ?? '[]') as unknown;
    const seenHere = await here.query('SELECT url FROM search_page_daily FINAL ORDER BY url');
    const both = [{ url: 'https://example.com/from-child' }, { url: 'https://example.com/from-parent' }];
    expect(seenByChild).toEqual(both);
    expect(seenHere).toEqual(both);
  });
});

function searchRow(page: string): Record<string, unknown> {
  return { website: 'example', date: '2024-03-01', url: `https://example.com/${page}`, clicks: 3, impressions: 100, position: 4.2, imported_at: new Date('2024-03-02T00:00:00Z') };
}

async function onServer(url: string, sql: string): Promise<void> {
  const admin = new ClickhouseHttpExecutor({ url });
  try {
    await admin.command(sql);
  } finally {
    await admin.close();
  }
}

async function onServerRows(url: string, sql: string): Promise<unknown[]> {
  const admin = new ClickhouseHttpExecutor({ url });
  try {
    return await admin.query(sql);
  } finally {
    await admin.close();
  }
}
