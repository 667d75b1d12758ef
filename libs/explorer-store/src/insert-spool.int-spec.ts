import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InsertSpool } from './insert-spool';

describe('InsertSpool', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'insert-spool-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('hands the insert a file holding the rows, and removes it once the insert is done', async () => {
    const spool = new InsertSpool(join(root, 'spool'));
    const seen = await spool.with(Buffer.from('{"a":1}\n'), async (file) => readFileSync(file, 'utf8'));
    expect(seen).toBe('{"a":1}\n');
    expect(readdirSync(join(root, 'spool'))).toEqual([]);
  });

  it('removes the file when the insert fails, and passes the failure on', async () => {
    const spool = new InsertSpool(join(root, 'spool'));
    await expect(spool.with(Buffer.from('x'), () => Promise.reject(new Error('refused')))).rejects.toThrow('refused');
    expect(readdirSync(join(root, 'spool'))).toEqual([]);
  });

  it('gives concurrent inserts files of their own', async () => {
    const spool = new InsertSpool(join(root, 'spool'));
    const rows = ['1', '2', '3', '4'].map((n) => Buffer.from(`{"n":${n}}\n`));
    const seen = await Promise.all(rows.map((r) => spool.with(r, async (file) => ({ file, text: readFileSync(file, 'utf8') }))));
    expect(new Set(seen.map((s) => s.file)).size).toBe(4);
    expect(seen.map((s) => s.text)).toEqual(rows.map((r) => r.toString()));
  });

  it("removes another process's leftovers (a crash mid-insert) before its first insert, not its own files", async () => {
    const dir = join(root, 'spool');
    mkdirSync(dir);
    writeFileSync(join(dir, '999999999-1.jsonl'), 'left over');
    const spool = new InsertSpool(dir);
    const during = await spool.with(Buffer.from('{}\n'), async () => readdirSync(dir));
    expect(during).toEqual([expect.stringMatching(new RegExp(`^${process.pid}-\\d+\\.jsonl$`))]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
