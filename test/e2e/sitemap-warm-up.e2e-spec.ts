import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AppConfig } from '@bpc/config';
import { RECACHE_REQUESTED, type RecacheRequestedPayload, TOPICS } from '@bpc/events';
import type { EventLog } from '@bpc/event-log';
import { RunningApps, startApps } from '@bpc/composition';
import { capturedLogger, DaemonClient, messagesWith, removeTestDataDir, TestClock, testConfig, until } from '@bpc/testing';
import { daemonApp } from '../../apps/daemon/src/daemon.app';
import { projectorApp } from '../../apps/projector/src/projector.app';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const page = (path: string) => `https://www.example.com/${path}`;
const HOUR = 3_600_000;
/** 10:20 UTC on some day: the hourly interval began 20 minutes ago. */
const twentyPast = () => Math.floor(Date.now() / HOUR) * HOUR + 20 * 60_000;

async function sitemapOrigin(): Promise<{ server: Server; url: string }> {
  const body = `<urlset ${NS}>${['w1', 'w2', 'w3'].map((p) => `<url><loc>${page(p)}</loc></url>`).join('')}</urlset>`;
  const server = createServer((req, res) => void (req.url === '/sitemap.xml' ? res.writeHead(200, { 'content-type': 'application/xml' }).end(body) : res.writeHead(404).end()));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function warmUpConfig(mode: 'standalone' | 'cluster', origin: string): AppConfig {
  return testConfig(mode, {
    // The scheduler would drain what the warm-up queues; its tick still paces the warm-up checks.
    scheduler: { enabled: false, tick_ms: 50 },
    hosts: [{ host_id: 1, hostnames: ['www.example.com'], origin, dimensions: [{ id: 1, name: 'desktop', match: { fallback: true } }, { id: 2, name: 'mobile', match: { user_agent: 'Mobile' } }] }],
    websites: [{ id: 'demo', host_id: 1, account_id: 'acme', sitemaps: [{ url: page('sitemap.xml'), every_minutes: 60 }] }],
  });
}

/** Receipts of the sitemap requests recorded so far, read up to the log's end. */
async function sitemapReceipts(log: EventLog, group: string): Promise<string[]> {
  const receipts: string[] = [];
  const subscription = await log.subscribe({
    groupId: `${group}-${Math.random()}`,
    topics: [TOPICS.queue],
    handleBatch: async (batch) => {
      for (const { event } of batch.records) {
        const payload = event.payload as RecacheRequestedPayload;
        if (event.type === RECACHE_REQUESTED && payload.source === 'sitemap' && payload.receiptId) receipts.push(payload.receiptId);
      }
    },
  });
  try {
    await until(async () => (await subscription.lag()) === 0, { timeoutMs: 10_000 });
    return [...new Set(receipts)];
  } finally {
    await subscription.stop();
  }
}

describe('sitemap warm-up (websites[].sitemaps)', () => {
  let origin: { server: Server; url: string };

  beforeAll(async () => {
    origin = await sitemapOrigin();
  });

  afterAll(async () => {
    origin.server.closeAllConnections();
    await new Promise((resolve) => origin.server.close(resolve));
  });

  it('recaches the configured sitemap at start, then once per interval on the injected clock', async () => {
    const clock = new TestClock(twentyPast());
    const { logger, lines } = capturedLogger('info');
    const running = await startApps(standaloneApps, warmUpConfig('standalone', origin.url), logger, clock);
    try {
      const daemon = new DaemonClient(running.urls.daemon!);
      await until(async () => (await daemon.queues()).normal.total === 6, { timeoutMs: 15_000 });
      expect(await sitemapReceipts(running.runtime.ports.eventLog!, 'warm-up')).toHaveLength(1);
      await daemon.post('/internal/cache/queue/purge', { host_id: 1, priorities: ['normal'] });

      // The next interval begins at 11:00 (warm-up-schedule.spec.ts shows nothing runs before).
      clock.advance(40 * 60_000);
      await until(async () => (await daemon.queues()).normal.total === 6, { timeoutMs: 15_000 });
      expect(await sitemapReceipts(running.runtime.ports.eventLog!, 'warm-up')).toHaveLength(2);
      expect(messagesWith(lines, 'sitemap warm-up queued')).toHaveLength(2);
    } finally {
      await running.close();
      removeTestDataDir(running.runtime.config.data_dir);
    }
  }, 60_000);

  it('runs each interval on one daemon only in cluster mode (the turn is a Redis key)', async () => {
    const config = warmUpConfig('cluster', origin.url);
    const start = twentyPast();
    const daemons = [capturedLogger('info'), capturedLogger('info')];
    const first = await startApps([projectorApp, daemonApp], config, daemons[0].logger, new TestClock(start));
    let second: RunningApps | undefined;
    try {
      second = await startApps([daemonApp], config, daemons[1].logger, new TestClock(start + 1_000));
      // Each daemon has checked the interval: one queued it, the other found it taken.
      await until(() => daemons.every(({ lines }) => messagesWith(lines, 'sitemap warm-up').length > 0), { timeoutMs: 20_000 });
      const outcomes = daemons.map(({ lines }) => messagesWith(lines, 'sitemap warm-up')[0]);
      expect(outcomes.sort()).toEqual(['sitemap warm-up queued', 'sitemap warm-up: another daemon has this interval']);
      expect(await sitemapReceipts(first.runtime.ports.eventLog!, 'warm-up-cluster')).toHaveLength(1);
    } finally {
      await second?.close();
      await first.close();
      removeTestDataDir(config.data_dir);
    }
  }, 90_000);
});
