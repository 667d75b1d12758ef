import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ExplorerStoreError } from './explorer-store-error';
import type { ExplorerStore } from './explorer-store.port';

/** A store under test plus whatever must be cleaned up after it is closed. */
export interface ContractSubject {
  readonly store: ExplorerStore;
  /** Runs after `store.close()`: remove temporary directories, drop databases. */
  readonly dispose?: () => Promise<void>;
}

export interface ContractTraits {
  /**
   * False for a transport that buffers whole results before the first row
   * (chdb/connection does, by design): the unbounded-stream case is skipped.
   */
  readonly streamsLazily: boolean;
}

const STREAM_ROWS = 200_000;

/**
 * The behaviour every ExplorerStore adapter must show, run against each one
 * (chDB in-process, @clickhouse/client over chdb/connection and over a real
 * server) so standalone and cluster modes cannot drift apart.
 */
export function describeExplorerStoreContract(
  name: string,
  factory: () => Promise<ContractSubject>,
  traits: ContractTraits = { streamsLazily: true },
): void {
  describe(`ExplorerStore contract: ${name}`, () => {
    let subject: ContractSubject | undefined;
    const store = (): ExplorerStore => {
      if (!subject) throw new Error('store not created');
      return subject.store;
    };

    beforeAll(async () => {
      subject = await factory();
      await subject.store.migrate();
    });

    afterAll(async () => {
      await subject?.store.close();
      await subject?.dispose?.();
    });

    describe('migrate', () => {
      it('is idempotent and creates the explorer tables', async () => {
        await store().migrate();
        const tables = await store().query<{ name: string; engine: string; sorting_key: string; partition_key: string; create_table_query: string }>(
          `SELECT name, engine, sorting_key, partition_key, create_table_query FROM system.tables
           WHERE database = currentDatabase() AND name IN ('bot_requests', 'search_page_daily', 'search_query_daily')
           ORDER BY name`,
        );
        expect(tables.map((t) => [t.name, t.engine, t.sorting_key, t.partition_key])).toEqual([
          ['bot_requests', 'ReplacingMergeTree', 'website, ts, event_id', 'toYYYYMM(ts)'],
          ['search_page_daily', 'ReplacingMergeTree', 'website, date, url', 'toYYYYMM(date)'],
          ['search_query_daily', 'ReplacingMergeTree', 'website, date, query', 'toYYYYMM(date)'],
        ]);
        for (const table of tables) expect(table.create_table_query).toContain('non_replicated_deduplication_window = 1000');
      });
    });

    describe('query', () => {
      it('binds String, UInt32, DateTime64, Array(String), UInt64 and Bool parameters', async () => {
        const [row] = await store().query(
          `SELECT {s:String} AS s, {n:UInt32} AS n, {ts:DateTime64(3, 'UTC')} AS ts, {at:DateTime64(3, 'UTC')} AS at,
                  {tags:Array(String)} AS tags, toString({big:UInt64}) AS big, {flag:Bool} AS flag, {small:UInt64} AS small`,
          {
            s: 'Zoë\ttab\nline \\ back',
            n: 4_294_967_295,
            ts: '2024-01-02 03:04:05.678',
            at: new Date('2024-01-02T03:04:05.678Z'),
            tags: ['a', "b'c", ''],
            big: 2n ** 64n - 1n,
            flag: true,
            small: 42,
          },
        );
        expect(row).toEqual({
          s: 'Zoë\ttab\nline \\ back',
          n: 4_294_967_295,
          ts: '2024-01-02 03:04:05.678',
          at: '2024-01-02 03:04:05.678',
          tags: ['a', "b'c", ''],
          big: '18446744073709551615',
          flag: true,
          small: 42,
        });
      });

      it('treats injection attempts in bound values as data', async () => {
        const attacks = [
          "'; DROP TABLE bot_requests; --",
          "' OR 1 = 1 --",
          "x' UNION SELECT name FROM system.tables --",
          '/* comment */ 1; SELECT 1',
          "\\'; DROP TABLE bot_requests; --",
          '{v:String}',
          "\n'\t\\",
        ];
        for (const value of attacks) {
          const rows = await store().query<{ v: string; tags: string[]; n: number }>(
            'SELECT {v:String} AS v, {tags:Array(String)} AS tags, count() AS n FROM bot_requests WHERE url = {v:String}',
            { v: value, tags: [value] },
          );
          expect(rows).toEqual([{ v: value, tags: [value], n: 0 }]);
        }
        const [exists] = await store().query<{ n: number }>(
          "SELECT count() AS n FROM system.tables WHERE database = currentDatabase() AND name = 'bot_requests'",
        );
        expect(exists.n).toBe(1);
      });

      it('uses UTC as the session time zone', async () => {
        const [row] = await store().query("SELECT timezone() AS tz, toString(toDateTime(0)) AS epoch");
        expect(row).toEqual({ tz: 'UTC', epoch: '1970-01-01 00:00:00' });
      });
    });

    describe('stream', () => {
      it('yields every row in order for a result much larger than one chunk', async () => {
        let expected = 0;
        for await (const row of store().stream<{ number: number }>('SELECT number FROM numbers({n:UInt32})', { n: STREAM_ROWS })) {
          if (row.number !== expected) throw new Error(`row ${expected} came as ${row.number}`);
          expected += 1;
        }
        expect(expected).toBe(STREAM_ROWS);
      });

      // Only adapters that stream lazily can promise this (chdb/connection buffers by design).
      const itWhenLazy = traits.streamsLazily ? it : () => undefined;
      itWhenLazy('yields rows before the whole result exists, and stops when left', async () => {
        let seen = 0;
        // A trillion rows cannot be buffered: only a lazy stream gets here.
        for await (const row of store().stream<{ number: number }>('SELECT number FROM numbers({n:UInt64})', { n: 10n ** 12n })) {
          seen = row.number + 1;
          if (seen >= STREAM_ROWS) break;
        }
        expect(seen).toBe(STREAM_ROWS);
        await expect(store().query('SELECT 1 AS one')).resolves.toEqual([{ one: 1 }]);
      });

      it('serves queries, inserts and commands issued while a stream is open', async () => {
        await createScratchTable(store(), 'contract_during_stream');
        let count = 0;
        for await (const row of store().stream<{ number: number }>('SELECT number FROM numbers({n:UInt32})', { n: STREAM_ROWS })) {
          if (row.number !== count) throw new Error(`row ${count} came as ${row.number}`);
          count += 1;
          if (count === 1_000) {
            await expect(store().query('SELECT {x:UInt8} AS x', { x: 7 })).resolves.toEqual([{ x: 7 }]);
            await store().insert({ table: 'contract_during_stream', rows: [{ k: 1, v: 'a' }], token: randomUUID() });
            await store().command('INSERT INTO contract_during_stream SELECT {k:UInt32}, {v:String}', { k: 2, v: 'b' });
          }
        }
        expect(count).toBe(STREAM_ROWS);
        await expect(store().query('SELECT k, v FROM contract_during_stream ORDER BY k')).resolves.toEqual([
          { k: 1, v: 'a' },
          { k: 2, v: 'b' },
        ]);
      });

      it('runs two open streams side by side', async () => {
        const left = store().stream<{ n: number }>('SELECT number AS n FROM numbers(100000)')[Symbol.asyncIterator]();
        const right = store().stream<{ n: number }>('SELECT number * 2 AS n FROM numbers(100000)')[Symbol.asyncIterator]();
        for (let i = 0; i < 100_000; i += 1) {
          const [l, r] = await Promise.all([left.next(), right.next()]);
          if (l.value?.n !== i || r.value?.n !== i * 2) throw new Error(`row ${i}: ${JSON.stringify([l, r])}`);
        }
        expect((await left.next()).done).toBe(true);
        expect((await right.next()).done).toBe(true);
      });
    });

    describe('streamRaw', () => {
      it("yields the engine's CSV bytes with a single header", async () => {
        const chunks: Uint8Array[] = [];
        for await (const chunk of store().streamRaw(
          "SELECT number AS n, concat('row, \"', toString(number), '\"') AS label FROM numbers({n:UInt32})",
          { n: STREAM_ROWS },
          'CSVWithNames',
        )) {
          expect(chunk).toBeInstanceOf(Uint8Array);
          chunks.push(chunk);
        }
        const lines = Buffer.concat(chunks).toString('utf8').split('\n');
        expect(lines).toHaveLength(STREAM_ROWS + 2);
        expect(lines[0]).toBe('"n","label"');
        expect(lines[1]).toBe('0,"row, ""0"""');
        expect(lines[STREAM_ROWS]).toBe(`${STREAM_ROWS - 1},"row, ""${STREAM_ROWS - 1}"""`);
        expect(lines[STREAM_ROWS + 1]).toBe('');
      });

      it('yields the header alone for an empty result', async () => {
        const chunks: Uint8Array[] = [];
        for await (const chunk of store().streamRaw('SELECT number AS n FROM numbers(0)', undefined, 'CSVWithNames')) chunks.push(chunk);
        expect(Buffer.concat(chunks).toString('utf8')).toBe('"n"\n');
      });

      it('refuses formats outside the raw whitelist', async () => {
        const iterate = async (): Promise<void> => {
          for await (const chunk of store().streamRaw('SELECT 1', undefined, 'Parquet' as 'CSV')) void chunk;
        };
        await expect(iterate()).rejects.toThrow(/unsupported raw format/);
      });
    });

    describe('writeFile', () => {
      let dir: string;
      beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'bpc-write-file-'))));
      afterAll(() => rmSync(dir, { recursive: true, force: true }));

      it('writes the CSV with a single header to the file and reports its rows (quoted newlines included) and size', async () => {
        const file = join(dir, 'rows.csv');
        const written = await store().writeFile(
          "SELECT number AS n, if(number % 1000 = 7, concat('two\\nlines \"', toString(number), '\"'), toString(number)) AS label FROM numbers({n:UInt32})",
          { n: STREAM_ROWS },
          'CSVWithNames',
          file,
        );
        const text = readFileSync(file, 'utf8');
        expect(written).toEqual({ rows: STREAM_ROWS, bytes: statSync(file).size });
        expect(text.startsWith('"n","label"\n0,"0"\n')).toBe(true);
        expect(text).toContain('\n7,"two\nlines ""7"""\n');
        expect(text.endsWith(`\n${STREAM_ROWS - 1},"${STREAM_ROWS - 1}"\n`)).toBe(true);
        expect(text.split('"n","label"')).toHaveLength(2);
      });

      it('reports the rows written, not the rows the query read (filter, sort, limit)', async () => {
        const file = join(dir, 'limited.csv');
        const written = await store().writeFile('SELECT number AS n FROM numbers({n:UInt32}) WHERE number % 3 = 0 ORDER BY n DESC LIMIT 100', { n: 100_000 }, 'CSVWithNames', file);
        expect(written.rows).toBe(100);
        expect(readFileSync(file, 'utf8').split('\n').slice(1, 3)).toEqual(['99999', '99996']);
      });

      it('writes the header alone for an empty result, truncating what the file held', async () => {
        const file = join(dir, 'empty.csv');
        writeFileSync(file, 'stale bytes\n'.repeat(100));
        expect(await store().writeFile('SELECT number AS n FROM numbers(0)', undefined, 'CSVWithNames', file)).toEqual({ rows: 0, bytes: 4 });
        expect(readFileSync(file, 'utf8')).toBe('"n"\n');
      });

      it('rejects a failing query with ExplorerStoreError, an unwritable path with a file error, and formats outside the raw whitelist', async () => {
        await expect(store().writeFile('SELECT * FROM contract_nope', undefined, 'CSV', join(dir, 'nope.csv'))).rejects.toMatchObject({ clickhouseType: 'UNKNOWN_TABLE' });
        const unwritable = await store().writeFile('SELECT 1', undefined, 'CSV', join(dir, 'missing-dir', 'x.csv')).catch((e: unknown) => e);
        expect(unwritable).toMatchObject({ code: 'ENOENT' });
        expect(unwritable).not.toBeInstanceOf(ExplorerStoreError);
        await expect(store().writeFile('SELECT 1', undefined, 'Parquet' as 'CSV', join(dir, 'x.parquet'))).rejects.toThrow(/unsupported raw format/);
      });
    });

    describe('insert', () => {
      const website = `contract-${randomUUID()}`;
      const request = (id: string, at: Date | string): Record<string, unknown> => ({
        website,
        host: 'www.example.com',
        url: `https://www.example.com/${id}`,
        page_title: `Page ${id}`,
        status_code: 200,
        bot_name: 'Googlebot',
        user_agent: 'Mozilla/5.0 (compatible; Googlebot/2.1)',
        dimension_id: 1,
        dimension_name: 'desktop',
        cache_status: 'hit',
        serve_time_ms: 12,
        snapshot_age_s: 3600,
        bytes: 51_200,
        ts: at,
        request_id: `req-${id}`,
        event_id: `evt-${id}`,
      });

      it('stores a batch once when the same token is inserted twice', async () => {
        const rows = [request('a', new Date('2024-03-01T10:00:00.123Z')), request('b', '2024-03-01T10:00:01.5Z')];
        await store().insert({ table: 'bot_requests', rows, token: `${website}:0-1` });
        await store().insert({ table: 'bot_requests', rows, token: `${website}:0-1` });
        const stored = await store().query(
          'SELECT request_id, toString(ts) AS ts, cache_status, snapshot_age_s FROM bot_requests WHERE website = {website:String} ORDER BY ts',
          { website },
        );
        expect(stored).toEqual([
          { request_id: 'req-a', ts: '2024-03-01 10:00:00.123', cache_status: 'hit', snapshot_age_s: 3600 },
          { request_id: 'req-b', ts: '2024-03-01 10:00:01.500', cache_status: 'hit', snapshot_age_s: 3600 },
        ]);
      });

      it('stores nothing for no rows', async () => {
        const own = `contract-${randomUUID()}`;
        await store().insert({ table: 'bot_requests', rows: [], token: `${own}:0-0` });
        expect(await store().query('SELECT count() AS n FROM bot_requests WHERE website = {website:String}', { website: own })).toEqual([{ n: 0 }]);
      });

      it('stores identical rows twice under different tokens', async () => {
        await createScratchTable(store(), 'contract_dedup');
        const rows = [{ k: 1, v: 'same' }, { k: 2, v: 'same' }];
        await store().insert({ table: 'contract_dedup', rows, token: 'token-1' });
        await store().insert({ table: 'contract_dedup', rows, token: 'token-2' });
        await store().insert({ table: 'contract_dedup', rows, token: 'token-1' });
        await expect(store().query('SELECT count() AS n FROM contract_dedup')).resolves.toEqual([{ n: 4 }]);
      });

      it('does not carry a token over to later statements', async () => {
        await createScratchTable(store(), 'contract_token_scope');
        await store().insert({ table: 'contract_token_scope', rows: [{ k: 1, v: 'x' }], token: 'scope-token' });
        await store().command("INSERT INTO contract_token_scope SELECT number, 'y' FROM numbers(2)");
        await store().command("INSERT INTO contract_token_scope SELECT number + 10, 'z' FROM numbers(2)");
        await expect(store().query('SELECT count() AS n FROM contract_token_scope')).resolves.toEqual([{ n: 5 }]);
      });

      it('accepts an empty batch as a no-op', async () => {
        await expect(store().insert({ table: 'bot_requests', rows: [], token: 'empty' })).resolves.toBeUndefined();
      });

      it('rejects unknown columns instead of dropping them', async () => {
        const rows = [{ ...request('c', new Date()), no_such_column: 1 }];
        await expect(store().insert({ table: 'bot_requests', rows, token: randomUUID() })).rejects.toBeInstanceOf(ExplorerStoreError);
      });

      it('rejects a value outside the cache status enum', async () => {
        const rows = [{ ...request('d', new Date()), cache_status: 'warm' }];
        await expect(store().insert({ table: 'bot_requests', rows, token: randomUUID() })).rejects.toBeInstanceOf(ExplorerStoreError);
      });
    });

    describe('command and check', () => {
      it('runs DDL and INSERT … SELECT with bound parameters', async () => {
        await store().command('DROP TABLE IF EXISTS contract_command');
        await store().command('CREATE TABLE contract_command (k UInt32, v String) ENGINE = MergeTree ORDER BY k');
        await store().command('INSERT INTO contract_command SELECT number, {v:String} FROM numbers({n:UInt32})', { v: "it's", n: 3 });
        await expect(store().query('SELECT count() AS n, any(v) AS v FROM contract_command')).resolves.toEqual([{ n: 3, v: "it's" }]);
      });

      it('checks the engine is reachable', async () => {
        await expect(store().check()).resolves.toBeUndefined();
      });
    });

    describe('errors', () => {
      it("rejects bad SQL with ClickHouse's code and message", async () => {
        const err = await store().query('SELEC 1').catch((e: unknown) => e);
        expect(err).toBeInstanceOf(ExplorerStoreError);
        expect(err).toMatchObject({ clickhouseCode: 62, clickhouseType: 'SYNTAX_ERROR' });
        expect((err as Error).message).toMatch(/Syntax error/);
      });

      it('rejects an unknown table from every method', async () => {
        const unknown = { clickhouseCode: 60, clickhouseType: 'UNKNOWN_TABLE' };
        await expect(store().query('SELECT * FROM contract_nope')).rejects.toMatchObject(unknown);
        await expect(store().command('INSERT INTO contract_nope SELECT 1')).rejects.toMatchObject(unknown);
        await expect(drain(store().stream('SELECT * FROM contract_nope'))).rejects.toMatchObject(unknown);
        await expect(drain(store().streamRaw('SELECT * FROM contract_nope', undefined, 'CSV'))).rejects.toMatchObject(unknown);
        await expect(store().insert({ table: 'contract_nope', rows: [{ a: 1 }], token: 't' })).rejects.toBeInstanceOf(ExplorerStoreError);
      });

      it('rejects a failure in the middle of a stream', async () => {
        const sql = "SELECT throwIf(number = 150000, 'boom in the middle') AS x FROM numbers(200000)";
        await expect(drain(store().stream(sql))).rejects.toThrow(/boom in the middle/);
      });

      it('rejects a bad parameter value and multi-statements', async () => {
        await expect(store().query('SELECT {n:UInt8} AS n', { n: 'not a number' })).rejects.toBeInstanceOf(ExplorerStoreError);
        await expect(store().command('SELECT 1; DROP TABLE bot_requests')).rejects.toMatchObject({ clickhouseType: 'SYNTAX_ERROR' });
      });

      it('keeps working after errors', async () => {
        await expect(store().check()).resolves.toBeUndefined();
      });
    });
  });
}

async function createScratchTable(store: ExplorerStore, table: string): Promise<void> {
  await store.command(`DROP TABLE IF EXISTS ${table}`);
  await store.command(
    `CREATE TABLE ${table} (k UInt32, v String) ENGINE = MergeTree ORDER BY k SETTINGS non_replicated_deduplication_window = 100`,
  );
}

async function drain(iterable: AsyncIterable<unknown>): Promise<number> {
  let count = 0;
  for await (const item of iterable) {
    void item;
    count += 1;
  }
  return count;
}
