import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLog } from '@bpc/support';
import { applyDdl, ddlDirOf, readDdlFiles } from './ddl-migration';
import { ExplorerStoreError } from './explorer-store-error';

describe('DDL files', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bpc-ddl-'));
    mkdirSync(join(dir, 'b'));
    writeFileSync(join(dir, 'b', '010_b.sql'), 'CREATE TABLE b (x UInt8) ENGINE = Memory;\n');
    writeFileSync(join(dir, '002_a.sql'), '-- two\nCREATE TABLE a1 (x UInt8) ENGINE = Memory;\nCREATE TABLE a2 (x UInt8) ENGINE = Memory;\n');
    writeFileSync(join(dir, 'README.md'), 'not SQL; ignored');
  });

  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads the *.sql files under the directory in file name order, whatever their folder, split into statements', async () => {
    const files = await readDdlFiles(dir);
    expect(files.map((f) => [f.name, f.statements.length])).toEqual([
      ['002_a.sql', 2],
      ['010_b.sql', 1],
    ]);
  });

  it('runs every statement in order', async () => {
    const ran: string[] = [];
    await applyDdl(dir, async (sql) => void ran.push(sql.split('(')[0].trim().split('\n').pop() ?? ''), silentLog);
    expect(ran).toEqual(['CREATE TABLE a1', 'CREATE TABLE a2', 'CREATE TABLE b']);
  });

  it('names the file of a failing statement', async () => {
    const failing = async (): Promise<void> => {
      throw Object.assign(new Error('Code: 62. DB::Exception: Syntax error (SYNTAX_ERROR)'), { clickhouseCode: 62 });
    };
    const err = await applyDdl(dir, failing, silentLog).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExplorerStoreError);
    expect(err).toMatchObject({ message: '002_a.sql: Syntax error', clickhouseCode: 62, clickhouseType: 'SYNTAX_ERROR' });
  });

  it('refuses to migrate without a DDL directory, saying so', () => {
    expect(() => ddlDirOf(undefined)).toThrow('opened without ddlDir');
  });
});
