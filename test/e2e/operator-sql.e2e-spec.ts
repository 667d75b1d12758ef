import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, removeTestDataDir, TEST_INTERNAL_KEY, testConfig, until } from '@bpc/testing';
import { runCli } from '../../apps/cli/src/run-cli';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { adminHeaders } from './explorer-fixtures';

const MAX_ROWS = 100;
const MAX_MS = 3_000;

/** The SQL of each example question of docs/analysts.md, in order. */
function guideExamples(): string[] {
  const guide = readFileSync(path.resolve(__dirname, '../../docs/analysts.md'), 'utf8');
  const examples = guide.slice(guide.indexOf('## Example questions'));
  return [...examples.matchAll(/```sql\n([\s\S]*?)```/g)].map((m) => m[1].trim());
}

describe('the operator SQL console (standalone: chDB, read-only)', () => {
  let running: RunningApps;
  let api: string;

  const sql = async (statement: string, format?: 'json' | 'csv', headers: Record<string, string> = adminHeaders) => {
    const response = await fetch(`${api}/internal/admin/sql`, { method: 'POST', headers, body: JSON.stringify({ sql: statement, format }) });
    return { status: response.status, type: response.headers.get('content-type'), body: format === 'csv' && response.ok ? await response.text() : await jsonOf(response) };
  };
  const rows = async (statement: string): Promise<Record<string, unknown>[]> => {
    const answer = await sql(statement);
    if (answer.status !== 200) throw new Error(`${statement}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.rows;
  };
  const cli = async (...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli([...argv, '--url', api], { env: { BPC_INTERNAL_KEY: TEST_INTERNAL_KEY }, out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  beforeAll(async () => {
    running = await startApps(standaloneApps, testConfig('standalone', { operator_sql: { max_result_rows: MAX_ROWS, max_execution_ms: MAX_MS } }), createLogger('warn', 'e2e-operator-sql'));
    api = running.urls['public-api']!;
    const demo = await fetch(`${api}/internal/admin/demo-data`, { method: 'POST', headers: adminHeaders, body: JSON.stringify({ days: 35, requestsPerDay: 150 }) });
    const written = await jsonOf(demo);
    // The views read what the projector has written: wait until it is all there.
    await until(() => rows('SELECT count() AS n FROM analyst_bot_requests'), (r) => r[0].n === written.botRequests, { timeoutMs: 60_000, intervalMs: 200 });
    await until(() => rows('SELECT uniqExact(date) AS days FROM analyst_search_pages'), (r) => r[0].days === written.searchDays, { timeoutMs: 60_000, intervalMs: 200 });
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  it('needs the operator key: 401 without it or with another', async () => {
    const { 'x-internal-auth': _key, ...withoutKey } = adminHeaders;
    expect(await sql('SELECT 1', 'json', withoutKey)).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
    expect(await sql('SELECT 1', 'json', { ...withoutKey, 'x-internal-auth': 'not-the-key' })).toMatchObject({ status: 401, body: { code: 'UNAUTHENTICATED' } });
  });

  it.each([
    ['INSERT', "INSERT INTO bot_requests (website, url, event_id, ts) VALUES ('demo', 'https://www.example.com/x', 'forged', now())"],
    ['INSERT … SELECT', 'INSERT INTO bot_requests SELECT * FROM bot_requests LIMIT 1'],
    ['CREATE', 'CREATE TABLE scratch (x UInt8) ENGINE = Memory'],
    ['DROP', 'DROP TABLE bot_requests'],
    ['TRUNCATE', 'TRUNCATE TABLE search_page_daily'],
    ['SET readonly', 'SET readonly = 0'],
    ['SET a limit', `SET max_result_rows = ${MAX_ROWS * 1000}`],
    ['SETTINGS clause lifting the limits', `SELECT number FROM numbers(10) SETTINGS readonly = 0, max_result_rows = ${MAX_ROWS * 1000}`],
    // Table functions that read files or reach other hosts (the console must not become a way out of the process).
    ['file()', "SELECT * FROM file('/etc/passwd', 'LineAsString')"],
    ['url()', "SELECT * FROM url('http://127.0.0.1:1/', 'LineAsString')"],
    ['s3()', "SELECT * FROM s3('http://127.0.0.1:1/bucket/key.csv', 'CSV')"],
    ['remote()', "SELECT * FROM remote('127.0.0.1:1', system.one)"],
  ])('the engine refuses %s (403, its own READONLY error), and nothing changed', async (_name, statement) => {
    const before = await rows('SELECT count() AS n FROM analyst_bot_requests');
    const answer = await sql(statement);
    expect(answer).toEqual({ status: 403, type: expect.stringMatching(/json/), body: { code: 'FORBIDDEN', field: 'sql', message: expect.stringMatching(/^the engine runs this console read-only and refused the statement: .*readonly mode.* \(READONLY\)$/) } });
    expect(await rows('SELECT count() AS n FROM analyst_bot_requests')).toEqual(before);
  });

  describe('refuses, before the engine sees it, what its read-only mode lets through (403 naming the reason)', () => {
    let fileCount = 0;
    /** A path the engine could write: in the test data directory, not there yet. */
    const target = () => path.join(running.runtime.config.data_dir, `outfile-${(fileCount += 1)}.txt`);
    const refusedAs = (reason: RegExp) => ({ status: 403, type: expect.stringMatching(/json/), body: { code: 'FORBIDDEN', field: 'sql', message: expect.stringMatching(reason) } });
    const OUTFILE = /^the console refuses INTO OUTFILE before the statement reaches the engine: /;

    it.each([
      ['plain', (f: string) => `SELECT 1 INTO OUTFILE '${f}'`],
      ['lowercase', (f: string) => `select 1 into outfile '${f}'`],
      ['mixed case, tabs and line breaks between the words', (f: string) => `SeLeCt 1\n\tInTo\n  OutFile\n'${f}'`],
      ['a comment of every kind between the words', (f: string) => `SELECT 1 /* a */ INTO -- b\n OUTFILE # c\n #!d\n '${f}'`],
      ['a nested block comment', (f: string) => `SELECT 1 INTO /* a /* b */ c */ OUTFILE '${f}'`],
      ['the file name as a heredoc', (f: string) => `SELECT 1 INTO OUTFILE $$${f}$$`],
      ['TRUNCATE', (f: string) => `SELECT 1 INTO OUTFILE '${f}' TRUNCATE`],
      ['AND STDOUT', (f: string) => `SELECT 1 INTO OUTFILE '${f}' AND STDOUT`],
      ['COMPRESSION and FORMAT', (f: string) => `SELECT 1 INTO OUTFILE '${f}' COMPRESSION 'gzip' LEVEL 3 FORMAT TSV`],
      ['after a UNION', (f: string) => `SELECT 1 UNION ALL SELECT 2 INTO OUTFILE '${f}'`],
      ['after an INTERSECT of parenthesised selects', (f: string) => `(SELECT 1) INTERSECT (SELECT 1) INTO OUTFILE '${f}'`],
      ['after a WITH and subqueries', (f: string) => `WITH (SELECT 1) AS one SELECT number FROM (SELECT number FROM numbers(3)) WHERE number IN (SELECT one) INTO OUTFILE '${f}'`],
      ['of a view the analysts read', (f: string) => `SELECT count() FROM analyst_bot_requests INTO OUTFILE '${f}'`],
      ['of SHOW TABLES', (f: string) => `SHOW TABLES INTO OUTFILE '${f}'`],
      ['of DESCRIBE', (f: string) => `DESCRIBE TABLE bot_requests INTO OUTFILE '${f}'`],
      ['of EXISTS', (f: string) => `EXISTS TABLE bot_requests INTO OUTFILE '${f}'`],
      ['of SHOW CREATE', (f: string) => `SHOW CREATE TABLE bot_requests INTO OUTFILE '${f}'`],
      ['of EXPLAIN', (f: string) => `EXPLAIN SELECT 1 INTO OUTFILE '${f}'`],
      ['of EXPLAIN SYNTAX', (f: string) => `EXPLAIN SYNTAX SELECT 1 INTO OUTFILE '${f}'`],
      ['of an EXPLAIN whose query has a FORMAT (the file is the EXPLAIN’s)', (f: string) => `EXPLAIN AST SELECT 1 FORMAT TSV INTO OUTFILE '${f}'`],
      ['in a PARALLEL WITH', (f: string) => `SELECT 1 INTO OUTFILE '${f}' PARALLEL WITH SELECT 2`],
    ])('INTO OUTFILE, %s: refused, and no file appears', async (_name, statement) => {
      const file = target();
      expect(await sql(statement(file))).toEqual(refusedAs(OUTFILE));
      expect(await sql(statement(file), 'csv')).toEqual(refusedAs(OUTFILE));
      expect(existsSync(file)).toBe(false);
    });

    it('INTO OUTFILE … APPEND: refused, and the file it names keeps its bytes', async () => {
      const file = target();
      writeFileSync(file, 'kept\n');
      expect(await sql(`SELECT 'forged line' INTO OUTFILE '${file}' APPEND FORMAT TSVRaw`)).toEqual(refusedAs(OUTFILE));
      expect(await sql(`select 'forged line'\n-- here it comes\ninto/**/outfile '${file}' append format TSVRaw`)).toEqual(refusedAs(OUTFILE));
      expect(readFileSync(file, 'utf8')).toBe('kept\n');
    });

    it('parses the statement as the engine would run it: what is not one valid statement is 400, and no file appears', async () => {
      const file = target();
      // Alone a syntax error; after an EXPLAIN the file would be the EXPLAIN's.
      expect(await sql(`SELECT 1 FORMAT TSV INTO OUTFILE '${file}'`)).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'sql', message: expect.stringMatching(/SYNTAX_ERROR/) } });
      // A second statement behind a # comment holding a quote.
      expect(await sql(`SELECT 1 # '\n; SELECT 2 INTO OUTFILE '${file}'; # '`)).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'sql', message: expect.stringMatching(/Multi-statements/) } });
      expect(existsSync(file)).toBe(false);
    });

    it.each([
      ['STOP MERGES', 'SYSTEM STOP MERGES'],
      ['STOP MERGES of one table', 'SYSTEM STOP MERGES bot_requests'],
      ['STOP TTL MERGES', 'SYSTEM STOP TTL MERGES'],
      ['STOP FETCHES', 'SYSTEM STOP FETCHES'],
      ['START MERGES', 'SYSTEM START MERGES'],
      ['FLUSH LOGS', 'SYSTEM FLUSH LOGS'],
      ['DROP MARK CACHE', 'SYSTEM DROP MARK CACHE'],
      ['lowercase', 'system stop merges'],
      ['comments, casing and line breaks between the words', '/* a */ SyStEm -- b\n\tStOp # c\n MeRgEs'],
      ['two in a PARALLEL WITH', 'SYSTEM STOP MERGES bot_requests PARALLEL WITH SYSTEM STOP FETCHES'],
      ['after a SELECT in a PARALLEL WITH', 'SELECT 1 PARALLEL WITH SYSTEM STOP MERGES'],
      ['under an EXPLAIN', 'EXPLAIN SYNTAX SYSTEM STOP MERGES'],
    ])('SYSTEM, %s: refused', async (_name, statement) => {
      expect(await sql(statement)).toEqual(refusedAs(/^the console refuses SYSTEM statements before the statement reaches the engine: /));
    });

    it('KILL: refused (it would stop the projector’s own writes)', async () => {
      expect(await sql('KILL QUERY WHERE 1 SYNC')).toEqual(refusedAs(/^the console refuses KILL /));
      expect(await sql('kill mutation where 1')).toEqual(refusedAs(/^the console refuses KILL /));
    });

    it('BACKUP and RESTORE: refused, and no backup was made', async () => {
      expect(await sql("BACKUP TABLE bot_requests TO Memory('copy')")).toEqual(refusedAs(/^the console refuses BACKUP and RESTORE /));
      expect(await sql("backup database default to S3('http://127.0.0.1:1/bucket/copy')")).toEqual(refusedAs(/^the console refuses BACKUP and RESTORE /));
      expect(await sql("RESTORE TABLE bot_requests AS restored FROM Memory('copy')")).toEqual(refusedAs(/^the console refuses BACKUP and RESTORE /));
      expect(await rows('SELECT count() AS n FROM system.backups')).toEqual([{ n: 0 }]);
    });

    it('INSERT INTO FUNCTION file(): the engine refuses it itself (403 READONLY), and no file appears', async () => {
      const file = target();
      const answer = await sql(`INSERT INTO FUNCTION file('${file}', 'TSV', 'x UInt8') SELECT 1`);
      expect(answer).toEqual(refusedAs(/^the engine runs this console read-only and refused the statement: .*readonly mode.* \(READONLY\)$/));
      expect(existsSync(file)).toBe(false);
    });

    it('USE: refused, and later statements still read the default database', async () => {
      expect(await sql('USE system')).toEqual(refusedAs(/^the console refuses USE /));
      for (let i = 0; i < 3; i += 1) expect(await rows('SELECT currentDatabase() AS db')).toEqual([{ db: 'default' }]);
    });

    it.each([
      ['the file() function', "SELECT file('/etc/hostname') AS f", /^the console refuses the file\(\) function /],
      ['the file() function in a WHERE', "SELECT 1 FROM system.one WHERE file('/etc/hostname') != ''", /^the console refuses the file\(\) function /],
      ['DESCRIBE of file()', "DESCRIBE TABLE file('/etc/passwd', 'CSVWithNames')", /^the console refuses DESCRIBE of a table function /],
      ['DESCRIBE of url()', "DESC url('http://127.0.0.1:1/', 'CSVWithNames')", /^the console refuses DESCRIBE of a table function /],
    ])('reading outside the engine’s tables, %s: refused', async (_name, statement, reason) => {
      expect(await sql(statement)).toEqual(refusedAs(reason));
    });

    it('runs what only mentions them: words in strings, quoted names and comments, the system database', async () => {
      expect(await rows("SELECT 'SELECT 1 INTO OUTFILE ''/tmp/x''' AS a, 'SYSTEM STOP MERGES' AS b, 'file(''/etc/passwd'')' AS c")).toEqual([
        { a: "SELECT 1 INTO OUTFILE '/tmp/x'", b: 'SYSTEM STOP MERGES', c: "file('/etc/passwd')" },
      ]);
      expect(await rows("SELECT 1 AS `into outfile`, 2 AS `SYSTEM` -- INTO OUTFILE '/tmp/x'\n/* SYSTEM STOP MERGES */")).toEqual([{ 'into outfile': 1, SYSTEM: 2 }]);
      expect(await rows("SELECT name FROM system.databases WHERE name = 'system'")).toEqual([{ name: 'system' }]);
      expect((await rows('SHOW TABLES')).length).toBeGreaterThan(0);
      expect((await rows('DESCRIBE TABLE analyst_bot_requests')).map((r) => r.name)).toContain('bot_name');
      expect((await rows('EXPLAIN SELECT 1')).length).toBeGreaterThan(0);
      expect(await sql("SELECT 'INTO OUTFILE' AS a", 'csv')).toEqual({ status: 200, type: 'text/csv; charset=utf-8', body: '"a"\n"INTO OUTFILE"\n' });
    });

    it('the CLI prints the refusal', async () => {
      const file = target();
      expect(await cli('sql', `SELECT 1 INTO OUTFILE '${file}'`)).toMatchObject({ code: 1, out: '', err: expect.stringMatching(/^error: 403 the console refuses INTO OUTFILE .* \(sql\)$/) });
      expect(existsSync(file)).toBe(false);
    });
  });

  it('bounds the result rows (the engine refuses more than operator_sql.max_result_rows: 400 naming sql)', async () => {
    expect((await rows(`SELECT number FROM numbers(${MAX_ROWS})`)).length).toBe(MAX_ROWS);
    const answer = await sql(`SELECT number FROM numbers(${MAX_ROWS + 1})`);
    expect(answer).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'sql', message: expect.stringMatching(new RegExp(`^the result has more than ${MAX_ROWS} rows .*TOO_MANY_ROWS_OR_BYTES`)) } });
  });

  it('bounds the running time (the engine stops it past operator_sql.max_execution_ms: 504 QUERY_TIMEOUT)', async () => {
    const answer = await sql('SELECT count() FROM numbers(1000000000000000)');
    expect(answer).toMatchObject({ status: 504, body: { code: 'QUERY_TIMEOUT', field: 'sql', message: expect.stringMatching(/TIMEOUT_EXCEEDED/) } });
  }, 60_000);

  it('reports a bad statement with the engine’s reason (400 naming sql), one statement at a time', async () => {
    expect(await sql('SELEC 1')).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'sql', message: expect.stringMatching(/SYNTAX_ERROR/) } });
    expect(await sql('SELECT 1; SELECT 2')).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field: 'sql', message: expect.stringMatching(/Multi-statements/) } });
  });

  it('answers the engine’s CSV, header first', async () => {
    expect(await sql("SELECT 1 AS a, 'x,y' AS b", 'csv')).toEqual({ status: 200, type: 'text/csv; charset=utf-8', body: '"a","b"\n1,"x,y"\n' });
  });

  it('the CLI prints a table, CSV or JSON', async () => {
    const statement = "SELECT bot_name, count() AS requests FROM analyst_bot_requests WHERE bot_name IN ('Googlebot', 'Bingbot') GROUP BY bot_name ORDER BY bot_name";
    const expected = await rows(statement);
    expect(expected.map((r) => r.bot_name)).toEqual(['Bingbot', 'Googlebot']);
    const [bing, google] = expected.map((r) => String(r.requests));
    const width = Math.max('requests'.length, google.length, bing.length);

    const table = await cli('sql', statement);
    expect(table).toEqual({
      code: 0,
      err: '',
      out: [`bot_name  | ${'requests'.padStart(width)}`, `----------+-${'-'.repeat(width)}`, `Bingbot   | ${bing.padStart(width)}`, `Googlebot | ${google.padStart(width)}`, '(2 rows)'].join('\n'),
    });
    expect(await cli('sql', statement, '--format', 'csv')).toEqual({ code: 0, err: '', out: `"bot_name","requests"\n"Bingbot",${bing}\n"Googlebot",${google}` });
    expect(JSON.parse((await cli('sql', statement, '--format', 'json')).out)).toEqual(expected);

    const refused = await cli('sql', 'DROP TABLE bot_requests');
    expect(refused).toMatchObject({ code: 1, out: '', err: expect.stringMatching(/^error: 403 the engine runs this console read-only .*\(READONLY\) \(sql\)$/) });
  });

  describe('the example questions of docs/analysts.md, run as written, give the answers they promise', () => {
    const examples = guideExamples();
    const demoCount = async (where: string) => Number((await rows(`SELECT count() AS n FROM bot_requests FINAL WHERE website = 'demo' AND ${where}`))[0].n);

    it('has six', () => {
      expect(examples).toHaveLength(6);
    });

    it('1: requests per kind of bot and day add up to every request of the last 7 days', async () => {
      const answer = await rows(examples[0]);
      expect(answer.length).toBeGreaterThan(0);
      expect(new Set(answer.map((r) => r.day)).size).toBeGreaterThanOrEqual(7);
      expect(answer.reduce((sum, r) => sum + Number(r.requests), 0)).toBe(await demoCount('ts >= today() - 7'));
    });

    it('2: cached shares per bot, over every request of the last 30 days', async () => {
      const answer = await rows(examples[1]);
      expect(answer.reduce((sum, r) => sum + Number(r.requests), 0)).toBe(await demoCount('ts >= today() - 30'));
      // round(…, 3): at most half a thousandth off, a tie included (ClickHouse rounds a float's tie to even: 0.8625 to 0.862).
      for (const r of answer) expect(Math.abs(Number(r.cached_share) - Number(r.from_cache) / Number(r.requests))).toBeLessThanOrEqual(0.0005 + 1e-12);
      expect(answer.some((r) => Number(r.cached_share) > 0 && Number(r.cached_share) < 1)).toBe(true);
    });

    it('3: the slowest pages on a miss, slowest first', async () => {
      const answer = await rows(examples[2]);
      expect(answer.length).toBeGreaterThan(0);
      expect(answer.length).toBeLessThanOrEqual(10);
      const p95 = answer.map((r) => Number(r.p95_serve_ms));
      expect(p95).toEqual([...p95].sort((a, b) => b - a));
      for (const r of answer) expect(Number(r.misses)).toBeGreaterThanOrEqual(3);
    });

    it('4: pages answered with errors, each an error status', async () => {
      const answer = await rows(examples[3]);
      expect(answer.length).toBeGreaterThan(0);
      for (const r of answer) expect(Number(r.status_code)).toBeGreaterThanOrEqual(400);
      const top = answer[0];
      expect(Number(top.requests)).toBe(await demoCount(`url = '${String(top.url).replace(/'/g, "\\'")}' AND status_code = ${Number(top.status_code)} AND ts >= today() - 30`));
    });

    it('5: the pages with the most search clicks and how often bots crawled them', async () => {
      const answer = await rows(examples[4]);
      expect(answer.length).toBe(10);
      const clicks = answer.map((r) => Number(r.clicks));
      expect(clicks).toEqual([...clicks].sort((a, b) => b - a));
      expect(answer.some((r) => Number(r.bot_requests) > 0)).toBe(true);
      const top = answer[0];
      expect(Number(top.bot_requests)).toBe(await demoCount(`url = '${String(top.url).replace(/'/g, "\\'")}' AND ts >= today() - 28`));
    });

    it('6: the pages AI agents read most, by category and operator, with what robots.txt disallowed and what went out as Markdown', async () => {
      const answer = await rows(examples[5]);
      expect(answer.length).toBe(20);
      expect(new Set(answer.map((r) => r.bot_category)).size).toBeGreaterThan(1);
      for (const r of answer) expect(['ai_search', 'ai_assistant', 'ai_training']).toContain(r.bot_category);
      const requests = answer.map((r) => Number(r.requests));
      expect(requests).toEqual([...requests].sort((a, b) => b - a));
      const top = answer[0];
      const where = `bot_category = '${String(top.bot_category)}' AND bot_operator = '${String(top.bot_operator)}' AND url = '${String(top.url).replace(/'/g, "\\'")}' AND ts >= today() - 30`;
      expect([Number(top.requests), Number(top.disallowed), Number(top.as_markdown)]).toEqual([await demoCount(where), await demoCount(`${where} AND robots_allowed = 'no'`), await demoCount(`${where} AND format = 'markdown'`)]);
    });
  });
});
