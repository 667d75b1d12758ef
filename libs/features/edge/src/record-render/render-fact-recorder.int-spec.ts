import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EventLog, FileEventLog, LogRecord } from '@bpc/event-log';
import { RenderRecordedPayload, TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { testConfig, until } from '@bpc/testing';
import { Registry } from 'prom-client';
import { SwappableLog } from '../swappable-log.fixture';
import { RENDER_FACT_SPILL, RenderFactRecorder, RenderFactSpill } from './render-fact-recorder';

const fact = (n: number): RenderRecordedPayload => ({
  hostId: 1,
  url: `https://www.example.com/p${n}`,
  dimensionId: 1,
  mode: 'render',
  trigger: 'edge_miss',
  outcome: 'stored',
  reason: '',
  statusCode: 200,
  renderMs: 100,
  bytes: 1000,
  attempt: 1,
});

async function renderedUrls(log: FileEventLog, count: number): Promise<string[]> {
  const seen: LogRecord[] = [];
  const subscription = await log.subscribe({ groupId: `check-${Date.now()}`, topics: [TOPICS.renders], handleBatch: async (batch) => void seen.push(...batch.records) });
  await until(() => seen.length >= count, { timeoutMs: 10_000, intervalMs: 20 });
  await subscription.stop();
  return seen.map((r) => (r.event.payload as RenderRecordedPayload).url.slice(-3)).sort();
}

describe('RenderFactRecorder against a file event log', () => {
  it('records in the background, keeps facts while the log refuses them, spills what is left at shutdown and appends it at the next start', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-render-facts-'));
    const config = testConfig('standalone', { data_dir: dir, edge: { record_buffer_max: 3, record_flush_ms: 10 } });
    const logger = createLogger('silent', 'render-facts');
    const spillDir = path.join(dir, 'edge-spill');
    const logDir = path.join(dir, 'log');
    const up = await FileEventLog.open({ dir: logDir });
    const log = new SwappableLog(up);
    const spillOn = (target: EventLog) => new RenderFactSpill(spillDir, { append: (events) => target.append(TOPICS.renders, events) }, logger, undefined, RENDER_FACT_SPILL);

    const registry = new Registry();
    const recorder = new RenderFactRecorder(config, log, { now: () => Date.now() }, logger, registry, spillOn(log), 500);
    recorder.onModuleInit();
    recorder.record(fact(1));
    await until(() => recorder.pending() === 0, { timeoutMs: 5_000, intervalMs: 10 });

    await up.close();
    for (let n = 2; n <= 6; n += 1) recorder.record(fact(n));
    await until(() => log.refused >= 1, { what: 'an append the closed log refused' });
    // At most record_buffer_max held: the oldest went.
    expect(recorder.pending()).toBe(3);
    expect(await registry.getSingleMetricAsString('bpc_edge_render_facts_dropped_total')).toContain('bpc_edge_render_facts_dropped_total 2');
    await recorder.onApplicationShutdown();
    expect(readdirSync(spillDir).filter((name) => name.startsWith('render-facts-'))).toHaveLength(1);

    const back = await FileEventLog.open({ dir: logDir });
    const next = new RenderFactRecorder(config, back, { now: () => Date.now() }, logger, new Registry(), spillOn(back), 500);
    next.onModuleInit();
    await until(() => readdirSync(spillDir).filter((name) => name.endsWith('.ndjson')).length === 0, { timeoutMs: 10_000, what: 'spill appended and removed' });
    await next.onApplicationShutdown();
    expect(await renderedUrls(back, 4)).toEqual(['/p1', '/p4', '/p5', '/p6']);
    await back.close();
  }, 30_000);
});
