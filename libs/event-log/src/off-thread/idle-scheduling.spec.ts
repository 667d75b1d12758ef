import { mayLeaveIdle, threadIdIn } from './idle-scheduling';

const limits = (maxNice: string): string => `Limit                     Soft Limit           Hard Limit           Units     \nMax nice priority         ${maxNice}                    ${maxNice}                    \nMax realtime priority     0                    0                    \n`;

describe('mayLeaveIdle', () => {
  it('is true with CAP_SYS_NICE in the effective set (root, or the capability granted)', () => {
    expect(mayLeaveIdle('Name:\tnode\nCapEff:\t000001fffeffffff\n', limits('0'))).toBe(true);
    expect(mayLeaveIdle('CapEff:\t0000000000800000\n', limits('0'))).toBe(true);
  });

  it('is true without it when RLIMIT_NICE lets a thread back to nice 0 (20 or more)', () => {
    expect(mayLeaveIdle('CapEff:\t0000000000000000\n', limits('20'))).toBe(true);
    expect(mayLeaveIdle('CapEff:\t0000000000000000\n', limits('40'))).toBe(true);
    expect(mayLeaveIdle('CapEff:\t0000000000000000\n', limits('unlimited'))).toBe(true);
  });

  it('is false for a default container or user: no capability, RLIMIT_NICE under 20, or nothing to read', () => {
    // Docker's default set: no CAP_SYS_NICE (bit 23).
    expect(mayLeaveIdle('CapEff:\t00000000a80425fb\n', limits('0'))).toBe(false);
    expect(mayLeaveIdle('CapEff:\t0000000000000000\n', limits('19'))).toBe(false);
    expect(mayLeaveIdle('', '')).toBe(false);
  });
});

describe('threadIdIn', () => {
  it('reads the thread id of a /proc/thread-self link, and nothing else', () => {
    expect(threadIdIn('10070/task/10077')).toBe(10077);
    expect(threadIdIn('10070')).toBeUndefined();
    expect(threadIdIn('self/task/x')).toBeUndefined();
  });
});
