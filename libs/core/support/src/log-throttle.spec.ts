import { LogThrottle } from './log-throttle';

describe('LogThrottle', () => {
  it('lets one line through per interval and tells how many it held back meanwhile', () => {
    let now = 0;
    const throttle = new LogThrottle(1_000, () => now);
    expect(throttle.pass()).toBe(0);
    now = 500;
    expect([throttle.pass(), throttle.pass()]).toEqual([undefined, undefined]);
    now = 1_000;
    expect(throttle.pass()).toBe(2);
    now = 5_000;
    expect(throttle.pass()).toBe(0);
  });
});
