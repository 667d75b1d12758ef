import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChdbExecutor } from './chdb-executor';
import { InsertSpool } from './insert-spool';

describe('InsertSpool', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'insert-spool-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('hands the insert a file holding the rows, its chunks one after the other, and removes it once the insert is done', async () => {
    const spool = new InsertSpool(join(root, 'spool'));
    const seen = await spool.withRowsFile([Buffer.from('{"a":1}\n'), Buffer.alloc(0), Buffer.from('{"a":2}\n')], async (file) => readFileSync(file, 'utf8'));
    expect(seen).toBe('{"a":1}\n{"a":2}\n');
    expect(readdirSync(join(root, 'spool'))).toEqual([]);
  });

  it('removes the file when the insert fails, and passes the failure on', async () => {
    const spool = new InsertSpool(join(root, 'spool'));
    await expect(spool.withRowsFile([Buffer.from('x')], () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(readdirSync(join(root, 'spool'))).toEqual([]);
  });

  it('gives concurrent inserts files of their own', async () => {
    const spool = new InsertSpool(join(root, 'spool'));
    const rows = ['1', '2', '3', '4'].map((n) => Buffer.from(`{"n":${n}}\n`));
    const seen = await Promise.all(rows.map((r) => spool.withRowsFile([r], async (file) => ({ file, text: readFileSync(file, 'utf8') }))));
    expect(new Set(seen.map((s) => s.file)).size).toBe(4);
    expect(seen.map((s) => s.text)).toEqual(rows.map((r) => r.toString()));
  });

  it("removes an earlier run's leftovers (a crash mid-insert), even one of a process with this pid, before its first insert", async () => {
    const dir = join(root, 'spool');
    mkdirSync(dir);
    const leftovers = ['999999999-1.jsonl', `${process.pid}-1.jsonl`, `${process.pid}-00000000-0000-4000-8000-000000000000-1.jsonl`];
    for (const name of leftovers) writeFileSync(join(dir, name), 'left over');
    const during = await new InsertSpool(dir).withRowsFile([Buffer.from('{}\n')], async () => readdirSync(dir));
    expect(during).toHaveLength(1);
    expect(leftovers).not.toContain(during[0]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a directory the engine would read as a file pattern', () => {
    for (const dir of ['/data/*', '/data/a?b', '/data/{a,b}']) expect(() => new InsertSpool(dir)).toThrow(/file pattern/);
  });
});

describe('ChdbExecutor inserts through the spool', () => {
  let dir: string;
  let store: ChdbExecutor;
  beforeAll(async () => {
    // A quote in the data directory must reach the engine as part of the file name.
    dir = mkdtempSync(join(tmpdir(), "chdb-it's-"));
    store = new ChdbExecutor({ path: join(dir, 'chdb') });
    await store.command('CREATE TABLE spooled (k UInt32, v String) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 100');
  });
  afterAll(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('stores every row, once per token, and leaves no file behind', async () => {
    const rows = Array.from({ length: 1_000 }, (_, k) => ({ k, v: `row ${k} "quoted" \\ é` }));
    await store.insert({ table: 'spooled', rows, token: 'spooled-1' });
    await store.insert({ table: 'spooled', rows, token: 'spooled-1' });
    expect(await store.query('SELECT count() AS n, max(v) AS last FROM spooled WHERE k = 999')).toEqual([{ n: 1, last: 'row 999 "quoted" \\ é' }]);
    expect(await store.query('SELECT count() AS n FROM spooled')).toEqual([{ n: 1_000 }]);
    expect(readdirSync(join(dir, 'chdb', 'insert-spool'))).toEqual([]);
  });
});
