import { FailureStreakLog } from './failure-streak-log';

function recordingLog() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const sink = (level: string) => (fields: object, message: string) => void lines.push({ level, fields: fields as Record<string, unknown>, message });
  return { lines, log: { info: sink('info'), warn: sink('warn'), error: sink('error') } };
}

describe('FailureStreakLog', () => {
  it('logs the first failure of a streak, reminds once a minute with the count, and says when it works again', () => {
    const { lines, log } = recordingLog();
    let now = 0;
    const streak = new FailureStreakLog(log, 'error', 'store down: let through', 'store back', () => now);
    const boom = new Error('ECONNREFUSED');
    for (let i = 0; i < 1000; i += 1) streak.failed(boom, { url: 'u' });
    now = 59_999;
    streak.failed(boom);
    now = 60_000;
    streak.failed(boom);
    streak.failed(boom);
    streak.succeeded();
    streak.succeeded();
    expect(lines).toEqual([
      { level: 'error', fields: { url: 'u', err: boom }, message: 'store down: let through' },
      { level: 'error', fields: { err: boom, failures: 1002 }, message: 'store down: let through (still failing)' },
      { level: 'info', fields: { failures: 1003 }, message: 'store back' },
    ]);
  });

  it('starts a new streak after a success', () => {
    const { lines, log } = recordingLog();
    const streak = new FailureStreakLog(log, 'warn', 'refused', 'accepted again', () => 0);
    streak.failed('a');
    streak.succeeded();
    streak.failed('b');
    expect(lines.map((l) => `${l.level} ${l.message}`)).toEqual(['warn refused', 'info accepted again', 'warn refused']);
  });
});
