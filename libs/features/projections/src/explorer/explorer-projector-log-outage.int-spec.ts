import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { Registry } from 'prom-client';
import { BOT_REQUEST_RECORDED, BotRequestRecorded, envelope, TOPICS } from '@bpc/events';
import { EventLog, openKafkaEventLog } from '@bpc/event-log';
import { ChdbExecutor, EXPLORER_DDL_DIR } from '@bpc/explorer-store';
import { ReadinessRegistry, SCRAPE_READ_TIMEOUT_MS } from '@bpc/platform';
import { metricValue, refusedUntilOpened, settlesBefore, startKafkaMock, SwitchableAddress, until } from '@bpc/testing';
import { ExplorerProjector } from './explorer-projector';

const logger = pino({ level: 'silent' });
const LAG = 'bpc_explorer_projection_lag_events';

function request(i: number): BotRequestRecorded {
  const servedAt = new Date(Date.parse('2026-11-01T00:00:00Z') + i * 1000);
  return envelope(
    BOT_REQUEST_RECORDED,
    1,
    {
      websiteId: 'demo', host: 'www.example.com', url: `https://www.example.com/p${i}`, pageTitle: 'P', statusCode: 200, botName: 'Googlebot', userAgent: 'UA',
      dimensionId: 1, dimensionName: 'desktop', cacheStatus: 'hit', serveTimeMs: 10, snapshotAgeS: null, bytes: 100, servedAt: servedAt.toISOString(), requestId: `r${i}`,
    },
    { id: `outage-ev-${i}`, occurredAt: servedAt, key: 'demo' },
  );
}

/** A projector on its own chDB and Kafka log, with the readiness check and /metrics registry the apps give it. */
function projectorOn(log: EventLog, store: ChdbExecutor) {
  const readiness = new ReadinessRegistry();
  const registry = new Registry();
  const projector = new ExplorerProjector(log, store, logger, readiness, registry);
  const check = readiness.list().find((c) => c.name === 'projection (explorer)')!;
  const rows = async () => Number((await store.query<{ n: number }>('SELECT count() AS n FROM bot_requests FINAL'))[0].n);
  return { projector, registry, check, rows };
}

describe('explorer projector while Kafka is unreachable', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-explorer-log-outage-'));
  let store: ChdbExecutor;
  const projectors: ExplorerProjector[] = [];
  const logs: EventLog[] = [];
  /** Brokers and proxies, stopped after the projectors and logs. */
  const engines: { stop(): Promise<void> }[] = [];

  beforeAll(async () => {
    store = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await store.migrate();
  });

  afterAll(async () => {
    for (const projector of projectors) await projector.onApplicationShutdown();
    for (const log of logs) await log.close();
    for (const engine of engines) await engine.stop();
    await store?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  describe('at startup', () => {
    let broker: SwitchableAddress;
    let log: EventLog;
    let subject: ReturnType<typeof projectorOn>;

    beforeAll(async () => {
      const kafka = await startKafkaMock(1);
      engines.push(kafka);
      broker = await refusedUntilOpened(kafka.url.split(',')[0]);
      engines.push({ stop: () => broker.close() });
      log = openKafkaEventLog({ brokers: [broker.address], clientId: 'explorer-outage', namespace: 'explorer-outage-start', connectionTimeoutMs: 1_000 });
      logs.push(log);
      subject = projectorOn(log, store);
      projectors.push(subject.projector);
      subject.projector.onApplicationBootstrap();
    });

    it('reports the projection down with the reason, and a lag it does not know as unknown (not 0); a scrape still answers', async () => {
      await expect(subject.projector.lag()).rejects.toThrow(/^explorer projector not subscribed to .*bot-requests.*ECONNREFUSED/i);
      await expect(subject.check.check()).rejects.toThrow(/^explorer projector not subscribed to /);
      const metrics = await subject.registry.metrics();
      expect(metricValue(metrics, LAG)).toBeNaN();
    }, 60_000);

    it('subscribes by itself once Kafka is reachable and projects what the log holds', async () => {
      await broker.open();
      await log.append(TOPICS.botRequests, [request(1), request(2), request(3)]);
      await until(async () => (await subject.rows()) === 3 && (await subject.projector.lag().catch(() => -1)) === 0, { timeoutMs: 60_000, intervalMs: 200 });
      await expect(subject.check.check()).resolves.toEqual({ lag: 0 });
      expect(metricValue(await subject.registry.metrics(), LAG)).toBe(0);
    }, 90_000);
  });

  describe('after subscribing', () => {
    it('answers a scrape within the collect timeout, with the last known lag, when Kafka goes away', async () => {
      const kafka = await startKafkaMock(1);
      engines.push(kafka);
      const log = openKafkaEventLog({ brokers: kafka.url.split(','), clientId: 'explorer-outage', namespace: 'explorer-outage-lost', connectionTimeoutMs: 1_000 });
      logs.push(log);
      const { projector, registry } = projectorOn(log, store);
      projectors.push(projector);
      projector.onApplicationBootstrap();
      await until(async () => (await projector.lag().catch(() => -1)) === 0, { timeoutMs: 30_000, intervalMs: 200 });
      expect(metricValue(await registry.metrics(), LAG)).toBe(0);

      await kafka.stop();
      for (let scrape = 0; scrape < 2; scrape += 1) {
        const scraping = registry.metrics();
        // Answered by the read's timeout at the latest.
        expect(await settlesBefore(scraping, SCRAPE_READ_TIMEOUT_MS + 1_000)).toBe(true);
        expect(metricValue(await scraping, LAG)).toBe(0);
      }
    }, 90_000);
  });
});
