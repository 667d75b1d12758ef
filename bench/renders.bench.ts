import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { botRequestRecorded, EventEnvelope, newRenderRecorded, RENDER_OUTCOMES, RENDER_TRIGGERS, TOPICS } from '@bpc/events';
import { FileEventLog } from '@bpc/event-log';
import { ChdbExecutor, EXPLORER_DDL_DIR } from '@bpc/explorer-store';
import { ReadinessRegistry } from '@bpc/platform';
import { ExplorerProjector } from '@bpc/projections';
import { botRequestPayload } from '../test/harness/bot-request-fixture';
import type { BenchRow, BenchSuite } from './bench-row';

const EVENTS = 200_000;
const APPEND_BATCH = 1_000;
const TARGET_PER_S = 20_000;
const HOSTS = 20;

/** A render fact as the scheduler and the edge write them, outcomes and reasons of every kind. */
function renderFact(n: number): EventEnvelope {
  const failed = n % 7 === 0;
  return newRenderRecorded(
    {
      hostId: 1 + (n % HOSTS),
      url: `https://www.host${n % HOSTS}.example.com/catalog/item-${n % 50_000}?ref=bench`,
      dimensionId: 1 + (n % 2),
      mode: n % 5 === 0 ? 'bypass' : 'render',
      trigger: RENDER_TRIGGERS[n % RENDER_TRIGGERS.length],
      outcome: RENDER_OUTCOMES[n % RENDER_OUTCOMES.length],
      reason: failed ? 'timed out: the page kept loading (2 requests open: https://cdn.example.com/app.js)' : '',
      statusCode: failed ? 0 : 200,
      renderMs: 200 + (n % 5000),
      bytes: failed ? 0 : 20_000 + (n % 100_000),
      attempt: 1 + (n % 3),
      ...(n % 4 === 0 ? {} : { entryId: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` }),
    },
    1_764_000_000_000 + n,
  );
}

function botRequest(n: number): EventEnvelope {
  const payload = botRequestPayload(n);
  return botRequestRecorded(payload, { id: `bench-${n}`, occurredAt: payload.servedAt });
}

/**
 * Appends `EVENTS` events of one topic to a fresh file log (untimed), then
 * times a fresh explorer projector from its start until every row is in
 * the table (lag 0, the count checked): rows projected per second, through
 * chDB as in standalone mode.
 */
async function projectedPerSecond(topic: string, table: string, make: (n: number) => EventEnvelope): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bpc-bench-renders-'));
  const log = await FileEventLog.open({ dir: path.join(dir, 'log'), partitions: 4 });
  const store = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
  try {
    await store.migrate();
    for (let start = 0; start < EVENTS; start += APPEND_BATCH) {
      await log.append(topic, Array.from({ length: Math.min(APPEND_BATCH, EVENTS - start) }, (_, i) => make(start + i)));
    }
    const projector = new ExplorerProjector(log, store, pino({ level: 'silent' }), new ReadinessRegistry());
    const started = performance.now();
    projector.onApplicationBootstrap();
    // Polled: the projector reports no completion of its own.
    for (;;) {
      if ((await projector.lag()) === 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const seconds = (performance.now() - started) / 1000;
    await projector.onApplicationShutdown();
    const [{ n }] = await store.query<{ n: number }>(`SELECT count() AS n FROM ${table} FINAL`);
    if (Number(n) !== EVENTS) throw new Error(`${table}: ${n} rows projected, ${EVENTS} expected`);
    return EVENTS / seconds;
  } finally {
    await log.close();
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Render history projection (issue 32): RenderRecorded into render_outcomes, against bot requests into bot_requests in the same run. */
export const rendersBench: BenchSuite = {
  name: 'renders',
  async run(): Promise<BenchRow[]> {
    const baseline = await projectedPerSecond(TOPICS.botRequests, 'bot_requests', botRequest);
    const renders = await projectedPerSecond(TOPICS.renders, 'render_outcomes', renderFact);
    return [
      {
        name: `render outcomes projected (${EVENTS / 1000}k RenderRecorded, file log → chDB)`,
        value: renders,
        unit: 'rows/s',
        target: `>= ${TARGET_PER_S} rows/s`,
        pass: renders >= TARGET_PER_S,
        baseline: { name: 'bot requests projected', value: baseline, unit: 'rows/s' },
        ratio: renders / baseline,
      },
    ];
  },
};
