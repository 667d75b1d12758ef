import { sha256Hex } from '@bpc/domain';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { bypassHost, DaemonClient, rawRequest, RuntimeMode, TestClock, testConfig, TestOrigin, until, type OriginAnswer } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const TOKEN = 'render-history-token';
const page = (p: string) => `https://www.example.com${p}`;
const article = (words: number) => `<html><head><title>Article</title></head><body><p>${'words '.repeat(words)}</p></body></html>`;

/**
 * Every edge miss and every scheduler attempt is a `RenderRecorded` fact,
 * projected into `render_outcomes` by the apps as they run (the edge, the
 * daemon and the projector of the mode); last-good protection shows there.
 */
describe.each<RuntimeMode>(['standalone', 'cluster'])('render history (%s mode)', (mode) => {
  let running: RunningApps;
  let origin: TestOrigin;
  const answers = new Map<string, OriginAnswer>();

  beforeAll(async () => {
    origin = new TestOrigin((p) => answers.get(p) ?? { status: 200, body: article(400) });
    const config = testConfig(mode, {
      scheduler: { tick_ms: 50 },
      edge: { render_timeout_ms: 3_000, record_flush_ms: 50 },
      hosts: [bypassHost(await origin.start())],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) }],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', `render-history-${mode}`), new TestClock());
  });

  afterAll(async () => {
    await running?.close();
    await origin?.stop();
  });

  const outcomesOf = (url: string) =>
    running.runtime.ports.explorerStore!.query<{ trigger: string; outcome: string; reason: string; status_code: number; attempt: number; entry_id: string }>(
      'SELECT trigger, outcome, reason, status_code, attempt, entry_id FROM render_outcomes FINAL WHERE host_id = 1 AND url = {url:String} AND dimension_id = 1 ORDER BY ts, event_id',
      { url },
    );

  it('records an edge miss and the recaches after it, the one kept by last-good protection included', async () => {
    const url = page('/article');
    const miss = await rawRequest(running.urls.edge!, `/${url}`, { headers: { 'x-prerender-token': TOKEN, 'user-agent': 'Googlebot/2.1' } });
    expect(miss.status).toBe(200);
    await until(async () => (await outcomesOf(url)).length === 1);
    expect(await outcomesOf(url)).toEqual([{ trigger: 'edge_miss', outcome: 'stored', reason: '', status_code: 200, attempt: 1, entry_id: '' }]);

    // The origin now answers a page cut short: the recache keeps the good one.
    answers.set('/article', { status: 200, body: article(5) });
    const daemon = new DaemonClient(running.urls.daemon!);
    await daemon.post('/internal/cache/recache', { host_id: 1, urls: [url], priority: 'high' });
    await until(async () => (await outcomesOf(url)).length === 2);
    // The test clock stands still: both facts have the same time, so the recache's is found by its trigger.
    const kept = (await outcomesOf(url)).find((row) => row.trigger !== 'edge_miss')!;
    expect(kept).toMatchObject({ trigger: 'recache_high', outcome: 'kept_smaller', reason: "under 30% of the last good page's size", status_code: 200, attempt: 1 });
    expect(kept.entry_id).not.toBe('');
    const cached = await running.runtime.ports.cacheStore!.get(1, url, 1);
    expect((await cached!.readBody()).toString()).toContain('words words words');
  }, 60_000);

  it('fails an edge miss whose page is blank rather than caching it, and records it', async () => {
    const url = page('/blank');
    answers.set('/blank', { status: 200, body: '<html><head><title>app</title></head><body><div id="root"></div></body></html>' });
    const miss = await rawRequest(running.urls.edge!, `/${url}`, { headers: { 'x-prerender-token': TOKEN, 'user-agent': 'Googlebot/2.1' } });
    expect(miss.status).toBe(503);
    await until(async () => (await outcomesOf(url)).length === 1);
    expect(await outcomesOf(url)).toEqual([{ trigger: 'edge_miss', outcome: 'failed', reason: 'blank page: no visible text', status_code: 0, attempt: 1, entry_id: '' }]);
    expect(await running.runtime.ports.cacheStore!.get(1, url, 1)).toBeUndefined();
  }, 60_000);
});
