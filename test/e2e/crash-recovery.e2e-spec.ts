import path from 'node:path';
import { FileEventLog, LogRecord } from '@bpc/event-log';
import { HOST_RECACHE_PAUSED, newQueueEvent, RECACHE_REQUESTED, RecacheRequestedPayload, TOPICS } from '@bpc/events';
import { jsonOf, spawnService, standaloneDir, TEST_INTERNAL_KEY, TestOrigin, until, waitUntilAnswers, writeStandaloneConfig } from '@bpc/testing';

const headers = { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' };

/** A standalone config with two dimensions (each URL queues two entries); returns the daemon's base URL too. */
async function writeConfig(dir: string, extra: Record<string, unknown> = {}): Promise<{ file: string; daemon: string }> {
  const { file, listen } = await writeStandaloneConfig(dir, {
    hosts: [{ host_id: 1, hostnames: ['www.example.com'], dimensions: [{ id: 1, name: 'desktop' }, { id: 2, name: 'mobile', match: { user_agent: 'Mobile' } }] }],
    ...extra,
  });
  return { file, daemon: `http://127.0.0.1:${listen.daemon}` };
}

/** Sends single-URL recache calls from a few concurrent clients until stopped; `acknowledged`: the URLs acknowledged, `count` so far. */
function sendUntilStopped(daemon: string): { stop: () => void; count: () => number; acknowledged: Promise<string[]> } {
  let running = true;
  const acked: string[] = [];
  const client = async (id: number) => {
    for (let i = 0; running; i += 1) {
      const url = `https://www.example.com/c${id}/p${i}`;
      try {
        const response = await fetch(`${daemon}/internal/cache/recache`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ host_id: 1, urls: [url], priority: 'normal' }),
        });
        if (response.status === 200) acked.push(url);
      } catch {
        return; // the process is gone
      }
    }
  };
  const clients = Promise.all([0, 1, 2, 3].map(client));
  return { stop: () => (running = false), count: () => acked.length, acknowledged: clients.then(() => acked) };
}

async function readQueueTopic(dataDir: string): Promise<RecacheRequestedPayload[]> {
  const log = await FileEventLog.open({ dir: path.join(dataDir, 'event-log') });
  const records: LogRecord[] = [];
  const subscription = await log.subscribe({ groupId: 'crash-test-reader', topics: [TOPICS.queue], handleBatch: async (b) => void records.push(...b.records) });
  await until(async () => (await subscription.lag()) === 0, { timeoutMs: 10_000 });
  await subscription.stop();
  await log.close();
  return records.filter((r) => r.event.type === RECACHE_REQUESTED).map((r) => r.event.payload as RecacheRequestedPayload);
}

describe('standalone process killed with SIGKILL in the middle of a stream of appends', () => {
  it('keeps every acknowledged event exactly once, and the rebuilt projection matches the log', async () => {
    const dir = standaloneDir('bpc-crash');
    const { file, daemon } = await writeConfig(dir);
    const env = { BPC_CONFIG: file };

    const first = spawnService('apps/standalone/src/main.ts', env);
    await waitUntilAnswers(`${daemon}/status`, headers, 60_000, first);
    // Paused, so the scheduler leaves the queue alone and the counts below are the log's alone.
    await fetch(`${daemon}/internal/cache/recache/pause`, { method: 'POST', headers, body: JSON.stringify({ host_id: 1 }) });
    const load = sendUntilStopped(daemon);
    // In the middle of the stream: acknowledged appends behind it, more in flight.
    await until(() => load.count() >= 20, { timeoutMs: 30_000, intervalMs: 10 });
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    load.stop();
    const acknowledged = await load.acknowledged;
    expect(acknowledged.length).toBeGreaterThan(10);

    const second = spawnService('apps/standalone/src/main.ts', env);
    await waitUntilAnswers(`${daemon}/status`, headers, 60_000, second);
    const status = await jsonOf(await fetch(`${daemon}/status`, { headers }));
    expect(status.data.queues['1'].paused).toBe(true);
    second.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);

    const recorded = (await readQueueTopic(path.join(dir, 'data'))).flatMap((p) => p.urls);
    const occurrences = new Map<string, number>();
    recorded.forEach((url) => occurrences.set(url, (occurrences.get(url) ?? 0) + 1));
    for (const url of acknowledged) expect({ url, times: occurrences.get(url) }).toEqual({ url, times: 1 });
    expect(recorded.length).toBe(occurrences.size);
    // One entry per URL and dimension, rebuilt from the log after the crash.
    expect(status.data.queues['1'].normal.total).toBe(occurrences.size * 2);
  }, 120_000);
});

describe('standalone process killed with SIGKILL in the middle of a drain', () => {
  it('loses no entry; at worst an entry in flight is rendered again', async () => {
    const origin = new TestOrigin(() => ({ status: 200, body: '<html><body>page</body></html>', delayMs: 100 }));
    const originUrl = await origin.start();
    const dir = standaloneDir('bpc-drain-crash');
    const { file, daemon } = await writeConfig(dir, {
      scheduler: { tick_ms: 50 },
      recache: { max_concurrent: 2, timeout_per_url: 5 },
      hosts: [{ host_id: 1, hostnames: ['www.example.com'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', action: 'bypass' }] }],
    });
    const env = { BPC_CONFIG: file };
    const urls = Array.from({ length: 24 }, (_, i) => `https://www.example.com/page-${i}`);
    try {
      const first = spawnService('apps/standalone/src/main.ts', env);
      await waitUntilAnswers(`${daemon}/status`, headers, 60_000, first);
      const queued = await fetch(`${daemon}/internal/cache/recache`, { method: 'POST', headers, body: JSON.stringify({ host_id: 1, urls, priority: 'normal' }) });
      expect(queued.status).toBe(200);
      await until(() => origin.totalHits() >= 8, { timeoutMs: 30_000, intervalMs: 10 });
      first.child.kill('SIGKILL');
      await first.exited;
      const hitsAtKill = origin.totalHits();

      const second = spawnService('apps/standalone/src/main.ts', env);
      await waitUntilAnswers(`${daemon}/status`, headers, 60_000, second);
      await until(
        async () => (await jsonOf(await fetch(`${daemon}/status`, { headers }))).data,
        (status) => status.queues['1'].normal.total === 0 && status.internal_queue.size === 0,
        { timeoutMs: 30_000, what: 'the drain' },
      );
      second.child.kill('SIGTERM');
      expect(await second.exited).toBe(0);

      for (const url of urls) expect({ url, fetched: (origin.hits.get(new URL(url).pathname) ?? 0) > 0 }).toEqual({ url, fetched: true });
      // Entries completed before the kill are settled from the log; only what was in flight (<= 2 x max_concurrent) repeats.
      expect(origin.totalHits()).toBeLessThanOrEqual(urls.length + 4);
      expect(hitsAtKill).toBeGreaterThanOrEqual(8);
    } finally {
      await origin.stop();
    }
  }, 120_000);
});

describe('standalone process restarted on a long queue log (no recent snapshot)', () => {
  it('answers its first /status with the whole queue rebuilt, not the part replayed so far', async () => {
    const dir = standaloneDir('bpc-rebuild');
    const { file, daemon } = await writeConfig(dir);
    // As a SIGKILLed process leaves it: a pause (so nothing drains), then 50,000 single-URL recaches, two entries each.
    const recaches = 50_000;
    const log = await FileEventLog.open({ dir: path.join(dir, 'data', 'event-log') });
    const now = Date.now();
    await log.append(TOPICS.queue, [newQueueEvent(HOST_RECACHE_PAUSED, { hostId: 1, expiresAt: now + 3_600_000 }, '1', now)]);
    for (let from = 0; from < recaches; from += 1000) {
      const urls = Array.from({ length: 1000 }, (_, i) => `https://www.example.com/p${from + i}`);
      await log.append(TOPICS.queue, urls.map((url) => newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls: [url], dimensionIds: [1, 2], priority: 'normal', source: 'daemon-api' }, '1', now)));
    }
    await log.close();

    const service = spawnService('apps/standalone/src/main.ts', { BPC_CONFIG: file });
    await waitUntilAnswers(`${daemon}/status`, headers, 90_000, service);
    const queue = (await jsonOf(await fetch(`${daemon}/status`, { headers }))).data.queues['1'];
    expect({ paused: queue.paused, normal: queue.normal.total }).toEqual({ paused: true, normal: recaches * 2 });
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
  }, 150_000);
});
