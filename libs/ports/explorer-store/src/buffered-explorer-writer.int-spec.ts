import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { ChdbExecutor } from './chdb-executor';
import type { ExplorerStore } from './explorer-store.port';
import { until } from '@bpc/testing';
import { BufferedExplorerWriter } from './buffered-explorer-writer';

/** An explorer store that is down: a real chDB executor, closed, so every insert fails. */
async function downStore(): Promise<{ store: ChdbExecutor; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-writer-'));
  const store = new ChdbExecutor({ path: dir });
  await store.close();
  return { store, dir };
}

/** The store's inserts, counted, each passed on to `store` (the writer uses nothing else). */
function countingInserts(store: ExplorerStore): { store: ExplorerStore; attempts: () => number } {
  let attempts = 0;
  const insert: ExplorerStore['insert'] = (batch) => {
    attempts += 1;
    return store.insert(batch);
  };
  return { store: { insert } as Partial<ExplorerStore> as ExplorerStore, attempts: () => attempts };
}

describe('buffered explorer writer while ClickHouse is down', () => {
  it('stops taking rows once a full buffer waits behind the failing write, and still shuts down', async () => {
    const { store: down, dir } = await downStore();
    const { store, attempts } = countingInserts(down);
    const writer = new BufferedExplorerWriter(store, pino({ level: 'silent' }), { maxRows: 100, maxDelayMs: 20 });
    const batch = new Map([['bot_requests', Array.from({ length: 100 }, (_, i) => ({ n: i }))]]);
    let accepted = 0;
    const feeding = (async () => {
      for (let i = 0; i < 50; i += 1) {
        await writer.add('t:0', String(i * 100), String((i + 1) * 100), batch);
        accepted += 1;
      }
    })();
    // Three failed attempts are two backoff timers later: a feed not held up would have handed over all 50 batches by then.
    await until(() => attempts() >= 3);
    // One buffer in the failing write, one full buffer waiting: the log is held up, memory is bounded.
    expect(accepted).toBeLessThanOrEqual(2);
    expect(writer.buffered()).toBeLessThanOrEqual(200);

    const attemptsAtStop = attempts();
    writer.stopRetrying();
    await writer.close();
    await expect(feeding).rejects.toThrow();
    // No retry after stopping: at most the attempt already under way when it was asked to stop.
    expect(attempts() - attemptsAtStop).toBeLessThanOrEqual(1);
    rmSync(dir, { recursive: true, force: true });
  }, 20_000);
});
