import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client';
import { startClickhouseServer, type RunningClickhouseServer } from './clickhouse-server';
import { until } from './until';

// The stand-in's own behaviour beyond what the explorer-store contract covers
// (libs/ports/explorer-store/src/clickhouse-http-executor.int-spec.ts).
describe('ClickHouse stand-in', () => {
  let server: RunningClickhouseServer;
  const clients: ClickHouseClient[] = [];
  const client = (options: Parameters<typeof createClient>[0] = {}): ClickHouseClient => {
    const created = createClient({ url: server.url, log: { level: ClickHouseLogLevel.OFF }, ...options });
    clients.push(created);
    return created;
  };

  beforeAll(async () => {
    const started = Date.now();
    server = await startClickhouseServer({ username: 'explorer', password: 'pa:ss' });
    process.stdout.write(`ClickHouse stand-in ready in ${Date.now() - started} ms\n`);
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await server.stop();
  });

  it('answers /ping without credentials, as ClickHouse does', async () => {
    const response = await fetch(`${server.url}/ping`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('Ok.\n');
  });

  it('checks the configured credentials and refuses others with 516 AUTHENTICATION_FAILED', async () => {
    await expect(client({ username: 'explorer', password: 'wrong' }).query({ query: 'SELECT 1' })).rejects.toMatchObject({ code: '516', type: 'AUTHENTICATION_FAILED' });
    const response = await fetch(`${server.url}/`, { method: 'POST', body: 'SELECT 1' });
    expect(response.status).toBe(403);
    expect(response.headers.get('x-clickhouse-exception-code')).toBe('516');
    const rows = await (await client({ username: 'explorer', password: 'pa:ss' }).query({ query: 'SELECT 1 AS one', format: 'JSONEachRow' })).json();
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('takes gzip request bodies and sends gzip responses when the client asks', async () => {
    const gzip = client({ username: 'explorer', password: 'pa:ss', compression: { request: true, response: true } });
    const database = await server.createDatabase('standin_gzip');
    await gzip.command({ query: `CREATE TABLE ${database}.t (k UInt32, v String) ENGINE = MergeTree ORDER BY k` });
    await gzip.insert({ table: `${database}.t`, values: [{ k: 1, v: 'a' }, { k: 2, v: 'b' }], format: 'JSONEachRow' });
    const result = await gzip.query({ query: `SELECT k, v FROM ${database}.t ORDER BY k`, format: 'JSONEachRow' });
    expect(result.response_headers['content-encoding']).toBe('gzip');
    expect(await result.json()).toEqual([{ k: 1, v: 'a' }, { k: 2, v: 'b' }]);
    await expect(gzip.query({ query: 'SELECT * FROM standin_gzip.nope' })).rejects.toMatchObject({ code: '60', type: 'UNKNOWN_TABLE' });
    await server.dropDatabase(database);
  });

  it('reports the query id, format and summary in headers', async () => {
    const result = await client({ username: 'explorer', password: 'pa:ss' }).query({ query: 'SELECT number FROM numbers(3)', format: 'JSONEachRow', query_id: 'standin-q-1' });
    expect(result.query_id).toBe('standin-q-1');
    expect(result.response_headers['x-clickhouse-query-id']).toBe('standin-q-1');
    expect(result.response_headers['x-clickhouse-format']).toBe('JSONEachRow');
    expect(JSON.parse(String(result.response_headers['x-clickhouse-summary']))).toMatchObject({ read_rows: expect.any(String) });
    await result.json();
  });

  it('refuses hostile request parts with ClickHouse errors, never a 500', async () => {
    const post = async (search: string): Promise<[number, string | null]> => {
      const response = await fetch(`${server.url}/?${search}`, { method: 'POST', body: 'SELECT 1', headers: { 'X-ClickHouse-User': 'explorer', 'X-ClickHouse-Key': 'pa:ss' } });
      await response.text();
      return [response.status, response.headers.get('x-clickhouse-exception-code')];
    };
    expect(await post(`database=${encodeURIComponent('default; DROP DATABASE default')}`)).toEqual([404, '81']);
    expect(await post(`query_id=${encodeURIComponent('a\r\nX-Injected: 1')}`)).toEqual([400, '36']);
    expect(await post(`${encodeURIComponent("max_threads = 1; SELECT '")}=1`)).toEqual([400, '115']);
    expect(await post('no_such_setting=1')).toEqual([400, '115']);
    expect(await post(`param_${encodeURIComponent('a b')}=1`)).toEqual([400, '456']);
    expect(await post(`default_format=${encodeURIComponent('CSV\r\nX: 1')}`)).toEqual([400, '73']);
  });

  it('serves concurrent requests from several clients, parameterised ones included', async () => {
    const many = Array.from({ length: 4 }, () => client({ username: 'explorer', password: 'pa:ss' }));
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        many[i % many.length].query({ query: 'SELECT {i:UInt32} AS i, {s:String} AS s', query_params: { i, s: `it's\t${i}` }, format: 'JSONEachRow' }).then((r) => r.json()),
      ),
    );
    expect(answers).toEqual(Array.from({ length: 40 }, (_, i) => [{ i, s: `it's\t${i}` }]));
    process.stdout.write(`40 parameterised round trips over 4 clients in ${Date.now() - started} ms\n`);
  });

  it('stops on SIGTERM after letting a query in flight finish', async () => {
    const own = await startClickhouseServer();
    const ownClient = createClient({ url: own.url });
    try {
      const started = Date.now();
      await (await ownClient.query({ query: 'SELECT 1', format: 'JSONEachRow' })).json();
      const warm = Date.now();
      await (await ownClient.query({ query: 'SELECT 1', format: 'JSONEachRow' })).json();
      process.stdout.write(`query round trip: first ${warm - started} ms, then ${Date.now() - warm} ms\n`);
      const slow = ownClient.query({ query: 'SELECT toUInt32(count()) AS n FROM numbers(300000000) SETTINGS max_threads = 1', format: 'JSONEachRow' }).then((r) => r.json());
      // The query is running once the engine reports it in system.processes (seen from another connection).
      const probe = createClient({ url: own.url });
      try {
        const running = async () => {
          const rows = await (await probe.query({ query: "SELECT toUInt32(count()) AS n FROM system.processes WHERE query LIKE '%numbers(300000000)%' AND query NOT LIKE '%system.processes%'", format: 'JSONEachRow' })).json<{ n: number }>();
          return rows[0].n > 0;
        };
        await until(running, { what: 'the slow query running' });
      } finally {
        await probe.close();
      }
      const stopping = own.stop();
      await expect(slow).resolves.toEqual([{ n: 300000000 }]);
      const stopAsked = Date.now();
      await stopping;
      process.stdout.write(`stopped ${Date.now() - stopAsked} ms after its last query answered\n`);
      expect(() => process.kill(own.pid, 0)).toThrow(/ESRCH/);
    } catch (err) {
      await own.stop();
      throw err;
    } finally {
      await ownClient.close();
    }
  });
});
