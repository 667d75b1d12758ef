import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { jsonOf, type RawAnswer, rawRequest, removeTestDataDir, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { buildDashboard } from './dashboard-fixtures';
import { botRequest, issueToken, recordAndWait } from './explorer-fixtures';

/** The body as sent, decoded by its Content-Encoding. */
function decoded(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return gunzipSync(answer.body);
  if (encoding === undefined) return answer.body;
  throw new Error(`unexpected Content-Encoding ${encoding}`);
}

/**
 * The public API compresses what it serves (issue 42): brotli or gzip as the
 * client's Accept-Encoding prefers, nothing when it asks for nothing, small
 * bodies as they are; streamed CSV downloads and the agent connector still
 * arrive whole.
 */
describe('public API response compression', () => {
  let running: RunningApps;
  let api: string;
  let token: string;
  let script: string;

  beforeAll(async () => {
    buildDashboard();
    running = await startApps(standaloneApps, testConfig('standalone', { scheduler: { enabled: false } }), createLogger('silent', 'e2e-compression'));
    api = running.urls['public-api']!;
    token = (await issueToken(api, { user: 'ann', website: 'demo', role: 'readonly' })).token;
    script = /src="(\/assets\/[^"]+\.js)"/.exec((await rawRequest(api, '/')).body.toString())![1];
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const get = (target: string, acceptEncoding?: string, headers: Record<string, string> = {}) =>
    rawRequest(api, target, { headers: { ...headers, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) } });

  it("sends the dashboard's JavaScript in the encoding the browser prefers, and plain to a client that asks for none", async () => {
    const plain = await get(script);
    expect([plain.status, plain.headers['content-encoding']]).toEqual([200, undefined]);
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['gzip', 'gzip'],
      ['br;q=0.5, gzip;q=1', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const answer = await get(script, accept);
      expect([accept, answer.status, answer.headers['content-encoding'], answer.headers.vary]).toEqual([accept, 200, expected, expected ? 'accept-encoding' : undefined]);
      expect(decoded(answer).equals(plain.body)).toBe(true);
    }
    expect((await get(script, 'gzip, br')).body.length).toBeLessThan(plain.body.length / 2);
  });

  it('compresses API JSON, and leaves a body under 1 KiB as it is', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const plain = await get('/api/websites/demo/data-explorer', undefined, auth);
    const compressed = await get('/api/websites/demo/data-explorer', 'gzip', auth);
    expect([compressed.status, compressed.headers['content-encoding']]).toEqual([200, 'gzip']);
    expect(JSON.parse(decoded(compressed).toString())).toEqual(JSON.parse(plain.body.toString()));
    const small = await get('/api/session', 'gzip, br');
    expect([small.status, small.headers['content-encoding'], JSON.parse(small.body.toString()).code]).toEqual([401, undefined, 'UNAUTHENTICATED']);
  });

  it('streams a CSV export compressed when asked, whole and with its length when not', async () => {
    await recordAndWait(running, [botRequest('demo', new Date(Date.now() - 60_000))], 'demo', 1);
    const exported = await fetch(`${api}/api/websites/demo/data-explorer/events/export`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ waitSeconds: 20 }),
    });
    const record = await jsonOf(exported);
    expect(record.status).toBe('completed');
    const link = new URL(record.downloadUrl);
    const plain = await get(`${link.pathname}${link.search}`);
    expect([plain.status, plain.headers['content-length']]).toEqual([200, String(plain.body.length)]);
    expect(plain.body.toString()).toContain('https://www.example.com/');
    const compressed = await get(`${link.pathname}${link.search}`, 'gzip');
    expect([compressed.status, compressed.headers['content-type']]).toEqual([200, 'text/csv; charset=utf-8']);
    expect(decoded(compressed).equals(plain.body)).toBe(true);
  });

  it('answers the agent connector to a client that accepts compression', async () => {
    const response = await fetch(`${api}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'accept-encoding': 'gzip, br' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'compression-test', version: '1' } } }),
    });
    expect(response.status).toBe(200);
    expect(await jsonOf(response)).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: expect.any(Object) } });
  });
});
