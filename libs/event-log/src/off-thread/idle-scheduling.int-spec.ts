import { Worker } from 'node:worker_threads';
import { SCHED_OTHER, threadPolicyOf, until } from '@bpc/testing';
import pino from 'pino';
import { IdleWhileCaughtUp, threadIdIn } from './idle-scheduling';

/** A real worker thread that waits until terminated, and its kernel id. */
async function waitingThread(): Promise<{ worker: Worker; tid: number }> {
  const worker = new Worker("require('node:worker_threads').parentPort.postMessage(require('node:fs').readlinkSync('/proc/thread-self')); setInterval(() => undefined, 1000);", { eval: true });
  const link = await new Promise<string>((resolve) => worker.once('message', resolve));
  return { worker, tid: threadIdIn(link)! };
}

describe('IdleWhileCaughtUp', () => {
  it('without chrt, keeps the thread at normal priority and says so once', async () => {
    const { worker, tid } = await waitingThread();
    try {
      const lines: { msg: string; policy?: string }[] = [];
      const log = pino({ level: 'warn' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
      const scheduling = new IdleWhileCaughtUp('bot request framing worker', log, '/nonexistent/chrt');
      scheduling.threadStarted(tid);
      await until(() => lines.length > 0, { timeoutMs: 5_000, intervalMs: 10 });
      scheduling.keepUp(true);
      scheduling.keepUp(false);
      // Another worker's scheduling, told after these: once its own attempt has failed, an attempt they started would have too.
      const laterLines: unknown[] = [];
      const later = new IdleWhileCaughtUp('another worker', pino({ level: 'warn' }, { write: (line: string) => void laterLines.push(line) }), '/nonexistent/chrt');
      later.threadStarted(tid);
      await until(() => laterLines.length > 0, { timeoutMs: 5_000, intervalMs: 10 });
      expect(lines).toEqual([expect.objectContaining({ msg: 'bot request framing worker: could not change its scheduling', policy: 'idle' })]);
      expect(threadPolicyOf(tid)).toBe(SCHED_OTHER);
    } finally {
      await worker.terminate();
    }
  });
});
