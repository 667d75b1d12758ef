import { MemoryQueueStore } from '@bpc/queue-store';
import { queueStatusView, readQueueStatus } from './queue-status';

describe('queueStatusView', () => {
  it('shows high and normal as total and due, and a pause with its deadline', () => {
    const counts = { high: { total: 3, due_now: 1 }, normal: { total: 5, due_now: 5 }, autorecache: { total: 9, due_now: 9 } };
    expect(queueStatusView(2, counts, Date.parse('2026-11-27T12:00:00Z'))).toEqual({
      hostId: 2,
      queues: { high: { total: 3, due: 1 }, normal: { total: 5, due: 5 } },
      paused: true,
      pausedUntil: '2026-11-27T12:00:00.000Z',
      drainEstimate: { high: { seconds: null, completedPerMinute: 0 }, normal: { seconds: null, completedPerMinute: 0 } },
    });
  });

  it('estimates each queue from its recent completions, counting the pause still to run', () => {
    const counts = { high: { total: 30, due_now: 30 }, normal: { total: 0, due_now: 0 }, autorecache: { total: 9, due_now: 9 } };
    const now = Date.parse('2026-11-27T11:50:00Z');
    // 60 completions in ten minutes: 6 a minute, 30 entries in 5 minutes, after the 10 minutes of pause left.
    expect(queueStatusView(2, counts, Date.parse('2026-11-27T12:00:00Z'), { high: 60, normal: 4, autorecache: 0 }, now).drainEstimate).toEqual({
      high: { seconds: 600 + 300, completedPerMinute: 6 },
      normal: { seconds: 0, completedPerMinute: 0.4 },
    });
  });

  it('reads a host without entries or pause as empty and running', () => {
    expect(queueStatusView(1, undefined, undefined)).toEqual({
      hostId: 1,
      queues: { high: { total: 0, due: 0 }, normal: { total: 0, due: 0 } },
      paused: false,
      pausedUntil: null,
      drainEstimate: { high: { seconds: 0, completedPerMinute: 0 }, normal: { seconds: 0, completedPerMinute: 0 } },
    });
  });
});

describe('readQueueStatus', () => {
  it("reads one host's counts at now and its pause from the queue store, other hosts left out", async () => {
    const store = new MemoryQueueStore();
    const now = Date.parse('2026-11-27T10:00:00Z');
    const items = (...paths: string[]) => paths.map((p) => ({ url: `https://www.example.com/${p}`, dimensionId: 1 }));
    await store.enqueue({ hostId: 1, priority: 'high', dueAt: now, items: items('a'), entryId: 'r1' });
    await store.enqueue({ hostId: 1, priority: 'normal', dueAt: now + 60_000, items: items('b', 'c'), entryId: 'r2' });
    await store.enqueue({ hostId: 2, priority: 'normal', dueAt: now, items: items('d'), entryId: 'r3' });
    await store.pause(1, now + 3_600_000);
    expect(await readQueueStatus(store, 1, now)).toEqual({
      hostId: 1,
      queues: { high: { total: 1, due: 1 }, normal: { total: 2, due: 0 } },
      paused: true,
      pausedUntil: '2026-11-27T11:00:00.000Z',
      drainEstimate: { high: { seconds: null, completedPerMinute: 0 }, normal: { seconds: null, completedPerMinute: 0 } },
    });
    // The pause has expired an hour later; the normal entries have come due.
    expect(await readQueueStatus(store, 1, now + 3_600_000)).toMatchObject({ queues: { normal: { total: 2, due: 2 } }, paused: false, pausedUntil: null });
    await store.close();
  });
});
