import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { ChdbExecutor, encodeRows } from '@bpc/explorer-store';
import { BufferedExplorerWriter } from './buffered-explorer-writer';

/** An explorer store that is down: a real chDB executor, closed, so every insert fails. */
async function downStore(): Promise<{ store: ChdbExecutor; dir: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-writer-'));
  const store = new ChdbExecutor({ path: dir });
  await store.close();
  return { store, dir };
}

describe('buffered explorer writer while ClickHouse is down', () => {
  it('stops taking rows once a full buffer waits behind the failing write, and still shuts down', async () => {
    const { store, dir } = await downStore();
    const writer = new BufferedExplorerWriter(store, pino({ level: 'silent' }), { maxRows: 100, maxDelayMs: 20 });
    const batch = new Map([['bot_requests', encodeRows(Array.from({ length: 100 }, (_, i) => ({ n: i })))]]);
    let accepted = 0;
    const feeding = (async () => {
      for (let i = 0; i < 50; i += 1) {
        await writer.add('t:0', String(i * 100), String((i + 1) * 100), batch);
        accepted += 1;
      }
    })();
    await new Promise((r) => setTimeout(r, 600));
    // One buffer in the failing write, one full buffer waiting: the log is held up, memory is bounded.
    expect(accepted).toBeLessThanOrEqual(2);
    expect(writer.buffered()).toBeLessThanOrEqual(200);

    const closed = Date.now();
    writer.stopRetrying();
    await writer.close();
    await feeding.catch(() => undefined);
    expect(Date.now() - closed).toBeLessThan(6_000);
    rmSync(dir, { recursive: true, force: true });
  }, 20_000);
});
