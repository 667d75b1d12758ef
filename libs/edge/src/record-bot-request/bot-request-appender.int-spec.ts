import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileEventLog } from '@bpc/event-log';
import { RecordedBotRequests, TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { idleThreadIds, testConfig, until } from '@bpc/testing';
import { botRequestAppender } from './bot-request-appender';

function oneRequest(): RecordedBotRequests {
  const requests = new RecordedBotRequests('0123456789abcdef0123456789abcdef');
  requests.add({ websiteId: 'demo', host: 'www.example.com', url: 'https://www.example.com/', pageTitle: '', statusCode: 200, botName: 'Googlebot', userAgent: 'Googlebot/2.1', dimensionId: 1, dimensionName: 'desktop', cacheStatus: 'hit', serveTimeMs: 1, snapshotAgeS: 0, bytes: 10, servedAtMs: Date.now(), requestId: 'r1' }, 0);
  return requests;
}

// The real kernel's scheduling, read back from /proc (Linux, as CI and every deployment).
describe("the file log appender's framing worker", () => {
  let dir: string;
  let log: FileEventLog;

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'bpc-appender-'));
    log = await FileEventLog.open({ dir });
  });

  afterEach(async () => {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs on idle CPU time only (SCHED_IDLE) until told to keep up, and again once caught up', async () => {
    expect(idleThreadIds()).toEqual([]);
    const appender = botRequestAppender(testConfig('standalone'), log, createLogger('silent', 'appender'));
    await appender.append(TOPICS.botRequests, [oneRequest().columns()]);
    await until(() => idleThreadIds().length === 1, { timeoutMs: 5_000, intervalMs: 10 });
    const [worker] = idleThreadIds();
    expect(worker).not.toBe(process.pid);

    appender.keepUp(true);
    await until(() => idleThreadIds().length === 0, { timeoutMs: 5_000, intervalMs: 10 });
    appender.keepUp(false);
    await until(() => idleThreadIds().length === 1, { timeoutMs: 5_000, intervalMs: 10 });
    expect(idleThreadIds()).toEqual([worker]);
    // Still appending from idle time.
    await appender.append(TOPICS.botRequests, [oneRequest().columns()]);
    expect(await log.nextOffsets(TOPICS.botRequests)).toContain(2);
    await appender.close();
  });

  it('runs at normal priority with edge.record_worker_idle false', async () => {
    const normal = botRequestAppender(testConfig('standalone', { edge: { record_worker_idle: false } }), log, createLogger('silent', 'appender'));
    await normal.append(TOPICS.botRequests, [oneRequest().columns()]);
    // The worker sent its thread id with its first message, before its answer: a change of its policy would have started by now.
    // An idle appender started after it is moved to idle and back, one change after the other: by then that first change would be done.
    const idle = botRequestAppender(testConfig('standalone'), log, createLogger('silent', 'appender'));
    try {
      await idle.append(TOPICS.botRequests, [oneRequest().columns()]);
      await until(() => idleThreadIds().length >= 1, { timeoutMs: 5_000, intervalMs: 10 });
      idle.keepUp(true);
      await until(() => idleThreadIds().length === 0, { timeoutMs: 5_000, intervalMs: 10, what: 'no idle thread once the idle appender keeps up' });
    } finally {
      await idle.close();
      await normal.close();
    }
  }, 20_000);
});
