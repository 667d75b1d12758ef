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
    });
  });

  it('reads a host without entries or pause as empty and running', () => {
    expect(queueStatusView(1, undefined, undefined)).toEqual({ hostId: 1, queues: { high: { total: 0, due: 0 }, normal: { total: 0, due: 0 } }, paused: false, pausedUntil: null });
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
    });
    // The pause has expired an hour later; the normal entries have come due.
    expect(await readQueueStatus(store, 1, now + 3_600_000)).toMatchObject({ queues: { normal: { total: 2, due: 2 } }, paused: false, pausedUntil: null });
    await store.close();
  });
});
