import path from 'node:path';
import { sha256Hex } from '@bpc/domain';
import { FileEventLog, LogRecord } from '@bpc/event-log';
import { BOT_REQUEST_RECORDED, BotRequestRecordedPayload, RECACHE_REQUESTED, RecacheRequestedPayload, TOPICS } from '@bpc/events';
import {
  jsonOf,
  mountSmallFilesystem,
  rawRequest,
  removeTestDataDir,
  SmallFilesystem,
  spawnService,
  TEST_INTERNAL_KEY,
  TestOrigin,
  until,
  waitUntilAnswers,
  whyNoSmallFilesystem,
  writeStandaloneConfig,
} from '@bpc/testing';

const admin = { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' };
const PRERENDER_TOKEN = 'disk-full-prerender-token';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const cannotMount = whyNoSmallFilesystem();
if (cannotMount) process.stdout.write(`disk-full.e2e-spec skipped: ${cannotMount}\n`);

/** Every record of `topics` in the file log of `dataDir` (the process that owned it has stopped). */
async function readLog(dataDir: string, topics: readonly string[]): Promise<LogRecord[]> {
  const log = await FileEventLog.open({ dir: path.join(dataDir, 'event-log') });
  const records: LogRecord[] = [];
  try {
    const subscription = await log.subscribe({ groupId: `disk-full-check-${Date.now()}`, topics, handleBatch: async (b) => void records.push(...b.records) });
    await until(async () => (await subscription.lag()) === 0, { what: 'log read to its end' });
    await subscription.stop();
  } finally {
    await log.close();
  }
  return records;
}

/**
 * Issue 29, item 3: the data directory's filesystem fills up, then space is
 * freed. A standalone process (every app, the file log, chDB) on a 4 MB
 * tmpfs the test mounts; the test fills it with a file of its own and
 * removes that file again, without restarting the process.
 */
(cannotMount ? describe.skip : describe)('disk full, then space freed (standalone process on a 4 MB tmpfs)', () => {
  let fs: SmallFilesystem;
  let origin: TestOrigin;

  beforeAll(async () => {
    fs = mountSmallFilesystem(4);
    origin = new TestOrigin((p, hit) => ({ status: 200, body: `<html><head><title>${p}</title></head><body>${p} v${hit}</body></html>` }));
  });

  afterAll(async () => {
    await origin?.stop();
    // The log's events are checked against the published schemas before the filesystem goes.
    if (fs) removeTestDataDir(path.join(fs.dir, 'data'));
    fs?.unmount();
  });

  it('refuses what it cannot store while full, serves bots the pages it rendered, recovers by itself once space is back, and loses nothing acknowledged', async () => {
    const originUrl = await origin.start();
    const dataDir = path.join(fs.dir, 'data');
    const { file, listen } = await writeStandaloneConfig(path.join(fs.dir), {
      data_dir: dataDir,
      scheduler: { enabled: false },
      edge: { record_flush_ms: 20 },
      hosts: [{ host_id: 1, hostnames: ['www.example.com'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', action: 'bypass' }] }],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(PRERENDER_TOKEN) }],
    });
    const daemon = `http://127.0.0.1:${listen.daemon}`;
    const api = `http://127.0.0.1:${listen.public_api}`;
    const edge = `http://127.0.0.1:${listen.edge}`;
    const service = spawnService('apps/standalone/src/main.ts', { BPC_CONFIG: file });
    try {
      await waitUntilAnswers(`${daemon}/health/ready`, {}, 60_000, service);
      await waitUntilAnswers(`${api}/health/ready`, {}, 60_000, service);
      const { token } = await jsonOf(await fetch(`${api}/internal/admin/tokens`, { method: 'POST', headers: admin, body: JSON.stringify({ user: 'ann', website: 'demo', role: 'readonly' }) }));
      const bearer = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const recache = (url: string) => fetch(`${daemon}/internal/cache/recache`, { method: 'POST', headers: admin, body: JSON.stringify({ host_id: 1, urls: [url], priority: 'normal' }) });
      const exportEvents = () => fetch(`${api}/api/websites/demo/data-explorer/events/export`, { method: 'POST', headers: bearer, body: JSON.stringify({ period: '7d', waitSeconds: 0 }) });
      const bot = (p: string) => rawRequest(edge, `/https://www.example.com${p}`, { headers: { 'x-prerender-token': PRERENDER_TOKEN, 'user-agent': GOOGLEBOT } });
      const readiness = async () => (await fetch(`${daemon}/health/ready`)).status;
      const servedIds: string[] = [];

      // Before: acknowledged work.
      const acknowledged: string[] = [];
      for (let n = 0; n < 5; n += 1) {
        const url = `https://www.example.com/before-${n}`;
        expect((await recache(url)).status).toBe(200);
        acknowledged.push(url);
        const served = await bot(`/before-${n}`);
        expect(served.status).toBe(200);
        servedIds.push(String(served.headers['x-request-id']));
      }

      // The disk fills up. What a segment's last page still holds may take a few more small appends; then they are refused.
      await fs.fill();
      let refusedUrl: string | undefined;
      let refusal: { status: number; message: string } | undefined;
      for (let n = 0; n < 200 && !refusedUrl; n += 1) {
        const url = `https://www.example.com/during-${n}`;
        const answer = await recache(url);
        if (answer.status === 200) acknowledged.push(url);
        else [refusedUrl, refusal] = [url, { status: answer.status, message: (await jsonOf(answer)).message }];
      }
      expect(refusal).toEqual({ status: 500, message: expect.stringMatching(/^event log unavailable, the request was not acknowledged .*ENOSPC/) });
      expect(await readiness()).toBe(503);
      expect((await fetch(`${daemon}/health/live`)).status).toBe(200);
      const refusedExport = await exportEvents();
      expect({ status: refusedExport.status, code: (await jsonOf(refusedExport)).code }).toEqual({ status: 503, code: 'LOG_UNAVAILABLE' });

      // A bot's miss: the origin answered, the cache could not store it; the bot gets the page all the same.
      const uncached = await bot('/during-miss');
      expect({ status: uncached.status, cache: uncached.headers['x-prerender-cache'], stored: uncached.headers['x-prerender-stored'] }).toEqual({ status: 200, cache: 'bypass', stored: 'no' });
      expect(uncached.body.toString()).toBe('<html><head><title>/during-miss</title></head><body>/during-miss v1</body></html>');
      const uncachedId = String(uncached.headers['x-request-id']);
      servedIds.push(uncachedId);

      // Space is back: no restart, the log repairs itself and readiness follows.
      const acknowledgedWhileFull = acknowledged.length - 5;
      await fs.free();
      const freedAt = Date.now();
      await until(readiness, (status) => status === 200, { timeoutMs: 30_000, what: 'daemon ready again after space was freed' });
      const readyAfterMs = Date.now() - freedAt;
      const after = 'https://www.example.com/after';
      expect((await recache(after)).status).toBe(200);
      acknowledged.push(after);
      const started = await exportEvents();
      expect(started.status).toBe(200);
      expect(await jsonOf(started)).toMatchObject({ exportId: expect.any(Number), status: expect.stringMatching(/^(running|completed)$/) });
      const stored = await bot('/during-miss');
      expect({ cache: stored.headers['x-prerender-cache'], stored: stored.headers['x-prerender-stored'] }).toEqual({ cache: 'bypass', stored: undefined });
      servedIds.push(String(stored.headers['x-request-id']));
      expect((await bot('/during-miss')).headers['x-prerender-cache']).toBe('hit');

      // The queue holds every acknowledged URL (one dimension each); the refused one left no trace.
      const status = await jsonOf(await fetch(`${daemon}/status`, { headers: admin }));
      expect(status.data.queues['1'].normal.total).toBe(acknowledged.length);
      service.child.kill('SIGTERM');
      expect(await service.exited).toBe(0);

      // What the log holds after the process stopped: every acknowledged recache once, none refused, every served bot request.
      const records = await readLog(dataDir, [TOPICS.queue, TOPICS.botRequests]);
      const queued = records.filter((r) => r.event.type === RECACHE_REQUESTED).flatMap((r) => (r.event.payload as RecacheRequestedPayload).urls);
      expect([...queued].sort()).toEqual([...acknowledged].sort());
      expect(queued).not.toContain(refusedUrl);
      const recorded = new Map(records.filter((r) => r.event.type === BOT_REQUEST_RECORDED).map((r) => [(r.event.payload as BotRequestRecordedPayload).requestId, r.event.payload as BotRequestRecordedPayload]));
      expect(servedIds.filter((id) => !recorded.has(id))).toEqual([]);
      expect(recorded.get(uncachedId)).toMatchObject({ cacheStatus: 'bypass', statusCode: 200, pageTitle: '/during-miss' });
      process.stdout.write(
        `disk full: ${acknowledged.length} recaches acknowledged (${acknowledgedWhileFull} after the fill, in what the segments' last pages held), then refused; ready ${readyAfterMs} ms after space was freed; ${servedIds.length} bot requests all recorded\n`,
      );
    } finally {
      if (service.child.exitCode === null) {
        service.child.kill('SIGKILL');
        await service.exited;
      }
    }
  }, 180_000);
});
