import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AppConfig } from '@bpc/config';
import { sha256Hex } from '@bpc/domain';
import type { LogBatch } from '@bpc/event-log';
import { BotRequestRecordedPayload, RENDER_RECORDED, RenderRecordedPayload, TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { rawRequest, RunningEngine, startKafkaMock, testConfig, testEngines, TestOrigin, until } from '@bpc/testing';
import { edgeApp } from '../../apps/edge/src/edge.app';

const TOKEN = 'edge-spill-token';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

/**
 * Issue 29, item 3: "the edge kept serving but dropped its buffered bot
 * requests at shutdown". Here the event log is a Kafka cluster of its own,
 * frozen (SIGSTOP: nothing answers, the append in flight hangs) while bots
 * are served and while the edge stops; the edge starts again on the same
 * data directory once the broker is back.
 */
describe('bot requests the event log cannot take at shutdown (cluster mode, the edge alone)', () => {
  let kafka: RunningEngine;
  let origin: TestOrigin;
  let config: AppConfig;
  let running: RunningApps | undefined;

  beforeAll(async () => {
    kafka = await startKafkaMock(1);
    origin = new TestOrigin((p) => ({ status: 200, body: `<html><head><title>${p}</title></head><body>page</body></html>` }));
    const originUrl = await origin.start();
    config = testConfig('cluster', {
      data_dir: mkdtempSync(path.join(tmpdir(), 'bpc-edge-spill-')),
      kafka: { brokers: kafka.url.split(','), client_id: 'edge-spill', namespace: 'edge-spill' },
      redis: { url: testEngines().redisUrl, key_prefix: `edge-spill-${Date.now()}` },
      edge: { record_flush_ms: 20 },
      hosts: [{ host_id: 1, hostnames: ['www.example.com'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', action: 'bypass' }] }],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) }],
    });
  });

  afterAll(async () => {
    process.kill(kafka.pid, 'SIGCONT');
    await running?.close();
    await origin?.stop();
    await kafka?.stop();
  });

  it('are spilled to the data directory and appended once the edge starts again, each request once', async () => {
    running = await startApps([edgeApp], config, createLogger('silent', 'edge-spill'));
    const served: string[] = [];
    const serve = async (n: number) => {
      const answer = await rawRequest(running!.urls.edge!, `/https://www.example.com/p${n % 5}`, { headers: { 'x-prerender-token': TOKEN, 'user-agent': GOOGLEBOT } });
      expect(answer.status).toBe(200);
      served.push(String(answer.headers['x-request-id']));
    };
    for (let n = 0; n < 10; n += 1) await serve(n);
    process.kill(kafka.pid, 'SIGSTOP');
    for (let n = 10; n < 60; n += 1) await serve(n);
    await running.close();
    running = undefined;
    const spillDir = path.join(config.data_dir, 'edge-spill');
    expect(readdirSync(spillDir).filter((name) => name.startsWith('bot-requests-') && name.endsWith('.ndjson'))).toHaveLength(1);

    process.kill(kafka.pid, 'SIGCONT');
    running = await startApps([edgeApp], config, createLogger('silent', 'edge-spill'));
    await until(() => readdirSync(spillDir).filter((name) => name.endsWith('.ndjson')).length === 0, { timeoutMs: 30_000, what: 'spill appended and removed' });

    // Every served request is in the log; a request appended twice (the append in flight at the freeze may have gone through after the thaw) carries one event id.
    const eventIdsByRequest = new Map<string, Set<string>>();
    // The misses' render facts take the same way (spilled with the requests when their append did not go through).
    const renderedUrls = new Set<string>();
    const subscription = await running.runtime.ports.eventLog!.subscribe({
      groupId: `edge-spill-check-${Date.now()}`,
      topics: [TOPICS.botRequests, TOPICS.renders],
      handleBatch: async (batch: LogBatch) => {
        for (const record of batch.records) {
          if (record.event.type === RENDER_RECORDED) {
            renderedUrls.add((record.event.payload as RenderRecordedPayload).url);
            continue;
          }
          const requestId = (record.event.payload as BotRequestRecordedPayload).requestId;
          eventIdsByRequest.set(requestId, (eventIdsByRequest.get(requestId) ?? new Set()).add(record.event.id));
        }
      },
    });
    try {
      await until(() => served.every((id) => eventIdsByRequest.has(id)), { timeoutMs: 30_000, what: () => `${served.length} requests in the log (${eventIdsByRequest.size} so far)` });
      await until(() => renderedUrls.size === 5, { timeoutMs: 30_000, what: () => `5 miss render facts in the log (${renderedUrls.size} so far)` });
    } finally {
      await subscription.stop();
    }
    expect([...eventIdsByRequest.keys()].sort()).toEqual([...served].sort());
    expect([...eventIdsByRequest.values()].filter((ids) => ids.size !== 1)).toEqual([]);
  }, 90_000);
});
