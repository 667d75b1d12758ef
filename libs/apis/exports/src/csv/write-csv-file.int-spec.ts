import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ChdbExecutor, ExplorerStoreError } from '@bpc/explorer-store';
import { writeCsvFile } from './write-csv-file';

describe('writeCsvFile (chDB)', () => {
  let dir: string;
  let store: ChdbExecutor;
  let out: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'bpc-csv-'));
    store = new ChdbExecutor({ path: path.join(dir, 'chdb') });
    out = path.join(dir, 'exports');
    mkdirSync(out);
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const query = {
    sql: "SELECT number AS n, if(number = 1, 'two\nlines', 'x') AS label FROM numbers({rows:UInt32}) SETTINGS output_format_csv_crlf_end_of_line = 1",
    params: { rows: 3 },
  };

  it("publishes the engine's CSV under its final name with the engine's row count, leaving no .part behind", async () => {
    const file = path.join(out, '1.csv');
    expect(await writeCsvFile(store, query, file)).toEqual({ rowCount: 3, sizeBytes: 42 });
    expect(readFileSync(file, 'utf8')).toBe('"n","label"\r\n0,"x"\r\n1,"two\nlines"\r\n2,"x"\r\n');
    expect(existsSync(`${file}.part`)).toBe(false);
  });

  it('publishes nothing when beforePublish throws (the lease was lost), and rethrows', async () => {
    const file = path.join(out, '2.csv');
    await expect(
      writeCsvFile(store, query, file, () => {
        throw new Error('lease lost');
      }),
    ).rejects.toThrow('lease lost');
    expect(existsSync(file) || existsSync(`${file}.part`)).toBe(false);
  });

  it('removes the partial file when the query fails in the middle, and rethrows the store error', async () => {
    const file = path.join(out, '3.csv');
    const failing = { sql: "SELECT throwIf(number = 150000, 'boom in the middle') AS x FROM numbers({rows:UInt32})", params: { rows: 200_000 } };
    await expect(writeCsvFile(store, failing, file)).rejects.toBeInstanceOf(ExplorerStoreError);
    expect(existsSync(file) || existsSync(`${file}.part`)).toBe(false);
  });
});
