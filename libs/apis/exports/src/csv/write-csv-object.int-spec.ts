import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChdbExecutor, ExplorerStoreError } from '@bpc/explorer-store';
import { FileObjectStore } from '@bpc/object-store';
import { writeCsvObject } from './write-csv-object';

describe('writeCsvObject (chDB, file object store)', () => {
  let dir: string;
  let store: ChdbExecutor;
  let objects: FileObjectStore;
  let staging: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bpc-csv-'));
    store = new ChdbExecutor({ path: path.join(dir, 'chdb') });
    objects = new FileObjectStore(path.join(dir, 'objects'));
    staging = path.join(dir, 'staging');
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = {
    sql: "SELECT number AS n, if(number = 1, 'two\nlines', 'x') AS label FROM numbers({rows:UInt32}) SETTINGS output_format_csv_crlf_end_of_line = 1",
    params: { rows: 3 },
  };
  const target = (id: number) => ({ key: `exports/${id}.csv`, stagingPath: path.join(staging, `${id}.csv`) });
  const objectFiles = () => (existsSync(path.join(dir, 'objects', 'exports')) ? readdirSync(path.join(dir, 'objects', 'exports')) : []);

  it("publishes the engine's CSV under its key with the engine's row count, leaving no staging file behind", async () => {
    expect(await writeCsvObject(store, objects, query, target(1))).toEqual({ rowCount: 3, sizeBytes: 42 });
    expect((await objects.read('exports/1.csv')).toString('utf8')).toBe('"n","label"\r\n0,"x"\r\n1,"two\nlines"\r\n2,"x"\r\n');
    expect(readdirSync(staging)).toEqual([]);
  });

  it.each([
    ['before the upload', 1],
    ['before the object is published', 2],
  ])('publishes nothing when beforeCommit throws %s (the lease was lost), and rethrows', async (_, throwOnCall) => {
    let calls = 0;
    const id = 1 + throwOnCall;
    await expect(
      writeCsvObject(store, objects, query, target(id), () => {
        if (++calls === throwOnCall) throw new Error('lease lost');
      }),
    ).rejects.toThrow('lease lost');
    expect(await objects.stat(`exports/${id}.csv`)).toBeUndefined();
    expect(objectFiles().filter((name) => name.startsWith(`${id}.`))).toEqual([]);
    expect(readdirSync(staging)).toEqual([]);
  });

  it('removes the staging file when the query fails in the middle, publishes nothing, and rethrows the store error', async () => {
    const failing = { sql: "SELECT throwIf(number = 150000, 'boom in the middle') AS x FROM numbers({rows:UInt32})", params: { rows: 200_000 } };
    await expect(writeCsvObject(store, objects, failing, target(4))).rejects.toBeInstanceOf(ExplorerStoreError);
    expect(await objects.stat('exports/4.csv')).toBeUndefined();
    expect(readdirSync(staging)).toEqual([]);
  });
});
