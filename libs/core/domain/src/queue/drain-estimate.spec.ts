import { completedPerMinute, completionBucket, completionsInWindow, estimateHostDrain, estimateQueueDrain } from './drain-estimate';

describe('drain estimate', () => {
  const now = Date.parse('2026-11-28T10:00:30Z');
  const MINUTE = 60_000;

  describe('completion window', () => {
    it('counts the current minute and the nine before it', () => {
      const current = completionBucket(now);
      expect(current).toBe(Date.parse('2026-11-28T10:00:00Z'));
      const buckets: [number, number][] = [
        [current, 1],
        [current - 9 * MINUTE, 2],
        [current - 10 * MINUTE, 4],
        [current + MINUTE, 8],
      ];
      expect(completionsInWindow(buckets, now)).toBe(3);
    });

    it('reads completions as a per-minute rate over the whole window', () => {
      expect(completedPerMinute(30)).toBe(3);
      expect(completedPerMinute(1)).toBe(0.1);
      expect(completedPerMinute(0)).toBe(0);
    });
  });

  describe('estimateQueueDrain', () => {
    it('divides the entries by the recent completion rate', () => {
      // 120 completions in 10 minutes: 12 a minute, so 60 entries take 5 minutes.
      expect(estimateQueueDrain(60, 120, undefined, now)).toEqual({ seconds: 300, completedPerMinute: 12 });
    });

    it('has no estimate while nothing completed in the window', () => {
      expect(estimateQueueDrain(60, 0, undefined, now)).toEqual({ seconds: null, completedPerMinute: 0 });
    });

    it('reads an empty queue as drained, with or without a rate', () => {
      expect(estimateQueueDrain(0, 0, undefined, now)).toEqual({ seconds: 0, completedPerMinute: 0 });
      expect(estimateQueueDrain(0, 50, now + 60 * MINUTE, now)).toEqual({ seconds: 0, completedPerMinute: 5 });
    });

    it('adds what is left of a pause; an expired pause adds nothing', () => {
      expect(estimateQueueDrain(60, 120, now + 30 * MINUTE, now)).toEqual({ seconds: 1_800 + 300, completedPerMinute: 12 });
      expect(estimateQueueDrain(60, 120, now - 1, now)).toEqual({ seconds: 300, completedPerMinute: 12 });
    });

    it('rounds up to whole seconds', () => {
      expect(estimateQueueDrain(1, 7, undefined, now).seconds).toBe(Math.ceil(600 / 7));
    });
  });

  it('estimates every queue of a host from its own rate', () => {
    const counts = { high: { total: 10, due_now: 10 }, normal: { total: 100, due_now: 40 }, autorecache: { total: 0, due_now: 0 } };
    expect(estimateHostDrain(counts, { high: 20, normal: 0, autorecache: 3 }, undefined, now)).toEqual({
      high: { seconds: 300, completedPerMinute: 2 },
      normal: { seconds: null, completedPerMinute: 0 },
      autorecache: { seconds: 0, completedPerMinute: 0.3 },
    });
  });
});
