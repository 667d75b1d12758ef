import { DELIVERY_ATTEMPTS, deliveryStatus, nextAttemptAt, retryDelayMs } from './alert-delivery';

describe('webhook delivery rules', () => {
  it('5 tries, 2, 4, 8 and 16 minutes apart: the last about 30 minutes after the first', () => {
    expect(DELIVERY_ATTEMPTS).toBe(5);
    const delays = [1, 2, 3, 4].map(retryDelayMs);
    expect(delays).toEqual([120_000, 240_000, 480_000, 960_000]);
    expect(delays.reduce((a, b) => a + b, 0)).toBe(30 * 60_000);
  });

  it('a schedule of due times from an injected clock, ending in failed', () => {
    let now = Date.parse('2026-11-28T10:00:00.000Z');
    const schedule: string[] = [];
    for (let attempt = 1; ; attempt++) {
      const status = deliveryStatus({ httpStatus: 503 }, attempt);
      const next = nextAttemptAt(status, attempt, now);
      schedule.push(`${attempt}:${status}@${new Date(now).toISOString().slice(11, 16)}`);
      if (next === undefined) break;
      now = next;
    }
    expect(schedule).toEqual(['1:retrying@10:00', '2:retrying@10:02', '3:retrying@10:06', '4:retrying@10:14', '5:failed@10:30']);
  });

  it('2xx delivered; 408, 429, 5xx and no answer retried; other answers failed at once', () => {
    expect([200, 202, 204, 299].map((httpStatus) => deliveryStatus({ httpStatus }, 1))).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect([408, 429, 500, 502, 503].map((httpStatus) => deliveryStatus({ httpStatus }, 1))).toEqual(['retrying', 'retrying', 'retrying', 'retrying', 'retrying']);
    expect(deliveryStatus({ error: 'ECONNREFUSED' }, 1)).toBe('retrying');
    expect([301, 400, 401, 404, 410, 422].map((httpStatus) => deliveryStatus({ httpStatus }, 1))).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'failed']);
    expect(deliveryStatus({ httpStatus: 200 }, DELIVERY_ATTEMPTS)).toBe('delivered');
    expect(deliveryStatus({ error: 'timeout' }, DELIVERY_ATTEMPTS)).toBe('failed');
  });
});
