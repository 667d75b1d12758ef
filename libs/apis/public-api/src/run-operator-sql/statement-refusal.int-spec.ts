import { existsSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChdbExecutor, ExplorerStoreError } from '@bpc/explorer-store';
import { explainSyntaxTree } from './explain-syntax-tree';
import { refusalOf } from './statement-refusal';
import { parseSyntaxTree } from './syntax-tree';

// The engine's own parser and its printed trees, as the console reads them: an engine upgrade that prints them differently fails here.
describe('the console’s check on chDB’s own syntax trees', () => {
  let dir: string;
  let engine: ChdbExecutor;
  let fileCount = 0;
  const target = () => join(dir, `outfile-${(fileCount += 1)}.txt`);
  const refusal = async (sql: string) => refusalOf(parseSyntaxTree(await explainSyntaxTree(engine, sql)));

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'bpc-operator-sql-'));
    engine = new ChdbExecutor({ path: join(dir, 'chdb'), readOnly: { maxResultRows: 1_000_000, maxExecutionMs: 30_000 } });
  });

  afterAll(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['plain', (f: string) => `SELECT 1 INTO OUTFILE '${f}'`],
    ['lowercase', (f: string) => `select 1 into outfile '${f}'`],
    ['line breaks and tabs', (f: string) => `SELECT 1\n\tINTO\n\tOUTFILE\n'${f}'`],
    ['comments of each kind between the words', (f: string) => `SELECT 1 /* a */ InTo -- b\n OutFile # c\n #!d\n '${f}'`],
    ['a heredoc file name', (f: string) => `SELECT 1 INTO OUTFILE $$${f}$$`],
    ['APPEND FORMAT TSVRaw', (f: string) => `SELECT 'line' INTO OUTFILE '${f}' APPEND FORMAT TSVRaw`],
    ['AND STDOUT', (f: string) => `SELECT 1 INTO OUTFILE '${f}' AND STDOUT`],
    ['COMPRESSION … LEVEL', (f: string) => `SELECT 1 INTO OUTFILE '${f}' COMPRESSION 'gzip' LEVEL 3`],
    ['after a UNION', (f: string) => `SELECT 1 UNION ALL SELECT 2 INTO OUTFILE '${f}'`],
    ['after EXCEPT', (f: string) => `(SELECT 1) EXCEPT (SELECT 2) INTO OUTFILE '${f}'`],
    ['after subqueries', (f: string) => `SELECT * FROM (SELECT 1 AS x) WHERE x IN (SELECT 1) INTO OUTFILE '${f}'`],
    ['of SHOW TABLES', (f: string) => `SHOW TABLES FROM system LIKE 'one' INTO OUTFILE '${f}'`],
    ['of DESCRIBE', (f: string) => `DESCRIBE system.one INTO OUTFILE '${f}'`],
    ['of CHECK TABLE', (f: string) => `CHECK TABLE system.one INTO OUTFILE '${f}'`],
    ['of EXPLAIN SYNTAX', (f: string) => `EXPLAIN SYNTAX SELECT 1 INTO OUTFILE '${f}'`],
    ['of EXPLAIN AST of a query with FORMAT (the EXPLAIN’s file)', (f: string) => `EXPLAIN AST SELECT 1 FORMAT TSV INTO OUTFILE '${f}'`],
    ['of an EXPLAIN inside an EXPLAIN', (f: string) => `EXPLAIN AST EXPLAIN AST SELECT 1 INTO OUTFILE '${f}'`],
    ['in a PARALLEL WITH', (f: string) => `SELECT 1 PARALLEL WITH SELECT 2 INTO OUTFILE '${f}'`],
  ])('INTO OUTFILE, %s: INTO_OUTFILE, and reading the tree writes no file', async (_name, statement) => {
    const file = target();
    expect(await refusal(statement(file))).toBe('INTO_OUTFILE');
    expect(existsSync(file)).toBe(false);
  });

  it.each([
    'SYSTEM STOP MERGES',
    'SYSTEM STOP TTL MERGES',
    'SYSTEM STOP FETCHES',
    'SYSTEM STOP MERGES system.one',
    'system start merges',
    'SYSTEM FLUSH LOGS',
    'SYSTEM DROP MARK CACHE',
    'SYSTEM SHUTDOWN',
    '-- a\n/* b */ SyStEm # c\n\tStOp\nMeRgEs',
    'EXPLAIN SYNTAX SYSTEM STOP MERGES',
    'SYSTEM STOP MERGES system.one PARALLEL WITH SYSTEM STOP FETCHES',
    'SELECT 1 PARALLEL WITH SYSTEM STOP MERGES',
  ])('%j: SYSTEM', async (statement) => {
    expect(await refusal(statement)).toBe('SYSTEM');
  });

  it.each([
    ['KILL QUERY WHERE 1 SYNC', 'KILL'],
    ["kill mutation where database = 'x'", 'KILL'],
    ['USE system', 'USE'],
    ["BACKUP TABLE system.one TO Memory('copy')", 'BACKUP'],
    ["BACKUP DATABASE default TO S3('http://127.0.0.1:1/bucket/copy')", 'BACKUP'],
    ["RESTORE TABLE system.one AS one_again FROM Memory('copy')", 'BACKUP'],
    ["DESCRIBE TABLE file('/etc/passwd', 'CSVWithNames')", 'DESCRIBE_TABLE_FUNCTION'],
    ["DESC url('http://127.0.0.1:1/', 'CSV')", 'DESCRIBE_TABLE_FUNCTION'],
    ["SELECT file('/etc/hostname')", 'FILE_FUNCTION'],
    ["SELECT 1 WHERE length(`file`('/etc/hostname')) > 0", 'FILE_FUNCTION'],
    ['SELECT `a\nb` FROM system.one', 'UNREADABLE'],
  ])('%j: %s', async (statement, expected) => {
    expect(await refusal(statement)).toBe(expected);
  });

  it.each([
    'SELECT 1',
    "SELECT 'SELECT 1 INTO OUTFILE ''/tmp/f''' AS a, 'SYSTEM STOP MERGES' AS b, 'file(''/etc/passwd'')' AS c",
    "SELECT 1 AS `into outfile`, 2 AS `SYSTEM`, 3 AS `file` -- INTO OUTFILE '/tmp/f'\n/* SYSTEM STOP MERGES */",
    "SELECT $$INTO OUTFILE '/tmp/f'$$ # SYSTEM STOP MERGES\n",
    "SELECT 1 WHERE 'a' = 'a'",
    'SELECT 1 FORMAT JSON',
    "SELECT name FROM system.tables WHERE database = 'system' LIMIT 1",
    'SHOW TABLES',
    'DESCRIBE system.one',
    'EXISTS system.one',
    'EXPLAIN SELECT 1',
    'EXPLAIN PLAN header = 1 SELECT 1',
    '1 + 1',
    // Writes, DDL, settings and table functions in a SELECT: the engine's read-only mode refuses them.
    "INSERT INTO FUNCTION file('/tmp/f', 'TSV', 'x UInt8') SELECT 1",
    "CREATE TABLE f ENGINE = File(TSV) AS SELECT 1",
    "CREATE TABLE f AS file('/etc/hostname')",
    'INSERT INTO t VALUES (1)',
    'DELETE FROM t WHERE 1',
    "UPDATE t SET x = 1 WHERE 'a' = 'a'",
    'SET readonly = 0',
    "SELECT * FROM file('/etc/passwd', 'LineAsString')",
  ])('%j: left to the engine', async (statement) => {
    expect(await refusal(statement)).toBeUndefined();
  });

  it('leaves no file and runs nothing for what is not exactly one statement: the engine’s syntax error, without the statement echoed', async () => {
    const file = target();
    writeFileSync(file, 'kept\n');
    for (const statement of [`SELECT 1 FORMAT TSV INTO OUTFILE '${file}' APPEND`, `SELECT 1; SELECT 2 INTO OUTFILE '${file}' APPEND`, `SELECT 1 # '\n; SELECT 2 INTO OUTFILE '${file}' APPEND; # '`]) {
      const error = await explainSyntaxTree(engine, statement).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ExplorerStoreError);
      expect(error).toMatchObject({ clickhouseType: 'SYNTAX_ERROR', message: expect.not.stringMatching(/In scope|formatQuery/) });
    }
    expect(readFileSync(file, 'utf8')).toBe('kept\n');
  });
});
