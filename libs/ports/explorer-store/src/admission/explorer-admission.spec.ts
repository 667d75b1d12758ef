import { TestClock } from '@bpc/testing';
import { AdmissionRefusedError, ExplorerAdmission } from './explorer-admission';

describe('ExplorerAdmission', () => {
  it('given a free place, when a statement enters, then it runs at once with the whole budget left', async () => {
    const clock = new TestClock();
    const admission = new ExplorerAdmission({ maxRunning: 2, perAccount: 4 }, clock);
    await expect(admission.run('a', clock.now() + 30_000, async (admitted) => admitted)).resolves.toEqual({ budgetMs: 30_000, priority: 'normal' });
    expect(admission.load).toEqual({ running: 0, waiting: 0 });
  });

  it('given a statement waiting for a place, when the place frees, then it runs with what its wait left of the budget', async () => {
    const clock = new TestClock();
    const admission = new ExplorerAdmission({ maxRunning: 1, perAccount: 4 }, clock);
    const holder = admission.enter('a', clock.now() + 30_000);
    await holder.admitted;
    const waiter = admission.enter('b', clock.now() + 30_000);
    expect(admission.load).toEqual({ running: 1, waiting: 1 });
    clock.advance(29_990);
    holder.leave();
    await expect(waiter.admitted).resolves.toEqual({ budgetMs: 10, priority: 'normal' });
    waiter.leave();
    waiter.leave();
    expect(admission.load).toEqual({ running: 0, waiting: 0 });
  });

  it('given an account at its limit, when it enters again, then it is refused at once with Retry-After in whole seconds', async () => {
    const clock = new TestClock();
    const admission = new ExplorerAdmission({ maxRunning: 1, perAccount: 2 }, clock);
    admission.enter('a', clock.now() + 30_000);
    admission.enter('a', clock.now() + 30_000);
    // The running statement is expected to end in 0.8 s (no run time seen yet: 1 s): whole seconds, rounded up.
    clock.advance(200);
    let refusal: unknown;
    try {
      admission.enter('a', clock.now() + 30_000);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(AdmissionRefusedError);
    expect(refusal).toMatchObject({ reason: 'account_full', retryAfterS: 1 });
    await expect(admission.run('a', clock.now() + 30_000, async () => 'ran')).rejects.toMatchObject({ reason: 'account_full' });
  });

  it('given a statement waiting, when its deadline passes, then it is refused with Retry-After and never runs', async () => {
    const clock = new TestClock();
    const admission = new ExplorerAdmission({ maxRunning: 1, perAccount: 4 }, clock);
    const holder = admission.enter('a', clock.now() + 10_000);
    let ran = false;
    const waiting = admission.run('b', clock.now() + 1_000, async () => (ran = true));
    clock.advance(1_000);
    admission.expireDue();
    await expect(waiting).rejects.toMatchObject({ reason: 'wait_expired', retryAfterS: 1 });
    holder.leave();
    expect(ran).toBe(false);
    expect(admission.load).toEqual({ running: 0, waiting: 0 });
  });

  it('given a waiting deadline on the system clock, when it passes, then the timer refuses the statement by itself', async () => {
    const admission = new ExplorerAdmission({ maxRunning: 1, perAccount: 4 });
    const holder = admission.enter('a', Date.now() + 60_000);
    await expect(admission.run('b', Date.now() + 20, async () => 'ran')).rejects.toMatchObject({ reason: 'wait_expired' });
    holder.leave();
  });
});
