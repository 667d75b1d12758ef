import { AdmissionChanges, FairAdmission, StatementKind, StatementRequest } from './fair-admission';

const T0 = 1_000_000;
let nextId = 0;
const statement = (account: string, deadlineMs = T0 + 30_000, kind: StatementKind = 'query'): StatementRequest => ({ id: ++nextId, account, kind, deadlineMs });
const ids = (changes: AdmissionChanges) => changes.started.map((s) => s.request.id);

describe('FairAdmission', () => {
  it('given free places, when an account asks, then its statements start until only the last place is left', () => {
    const admission = new FairAdmission({ maxRunning: 3, perAccount: 10 });
    const [a1, a2, a3] = [statement('a'), statement('a'), statement('a')];
    expect(ids(admission.arrive(a1, T0))).toEqual([a1.id]);
    expect(ids(admission.arrive(a2, T0))).toEqual([a2.id]);
    expect(ids(admission.arrive(a3, T0))).toEqual([]);
    expect({ running: admission.running, waiting: admission.waiting }).toEqual({ running: 2, waiting: 1 });
  });

  it('given one account filling the engine, when another account asks, then it takes the last place at once', () => {
    const admission = new FairAdmission({ maxRunning: 3, perAccount: 10 });
    for (let i = 0; i < 8; i++) admission.arrive(statement('a'), T0);
    const b = statement('b');
    expect(ids(admission.arrive(b, T0))).toEqual([b.id]);
  });

  it('given several accounts waiting, when places free up, then accounts are served in turn, each in arrival order', () => {
    const admission = new FairAdmission({ maxRunning: 1, perAccount: 10 });
    const first = statement('a');
    admission.arrive(first, T0);
    const [a1, a2, a3, b1, b2, c1] = [statement('a'), statement('a'), statement('a'), statement('b'), statement('b'), statement('c')];
    for (const r of [a1, a2, a3, b1, b2, c1]) expect(ids(admission.arrive(r, T0))).toEqual([]);
    const order: number[] = [];
    let running = first.id;
    for (let i = 0; i < 6; i++) {
      const [next] = ids(admission.leave(running, T0));
      order.push(next);
      running = next;
    }
    expect(order).toEqual([a1.id, b1.id, c1.id, a2.id, b2.id, a3.id]);
  });

  it('given the last place free and every waiting account already running, when a place frees, then the last place stays for a newcomer', () => {
    const admission = new FairAdmission({ maxRunning: 3, perAccount: 10 });
    const [a1, a2, b1] = [statement('a'), statement('a'), statement('b')];
    for (const r of [a1, a2, b1, statement('a'), statement('b')]) admission.arrive(r, T0);
    expect(ids(admission.leave(a2.id, T0))).toEqual([]);
    const c = statement('c');
    expect(ids(admission.arrive(c, T0))).toEqual([c.id]);
  });

  it('given an account at its limit, when it asks again, then it is refused at once with the time its running statement is expected to take yet', () => {
    const admission = new FairAdmission({ maxRunning: 1, perAccount: 2 });
    admission.arrive(statement('a', T0 + 30_000), T0);
    admission.arrive(statement('a', T0 + 20_000), T0);
    const third = statement('a');
    // Before any statement has ended, one is expected to take a second.
    expect(admission.arrive(third, T0 + 400)).toEqual({ started: [], refused: [{ request: third, reason: 'account_full', retryAfterMs: 600 }] });
    expect(admission.arrive(statement('a'), T0 + 5_000).refused[0].retryAfterMs).toBe(0);
    const other = statement('b');
    expect(admission.arrive(other, T0 + 5_000).refused).toEqual([]);
  });

  it('given statements that ran long, when an account is refused, then the expected wait follows the run times, never past the deadline', () => {
    const admission = new FairAdmission({ maxRunning: 2, perAccount: 1 });
    const slow = statement('a', T0 + 60_000);
    admission.arrive(slow, T0);
    admission.leave(slow.id, T0 + 11_000);
    // 1 s + 0.2 x (11 s - 1 s) = 3 s
    admission.arrive(statement('a', T0 + 60_000), T0 + 11_000);
    expect(admission.arrive(statement('a'), T0 + 11_000).refused[0].retryAfterMs).toBe(3_000);
    admission.arrive(statement('b', T0 + 12_000), T0 + 11_000);
    expect(admission.arrive(statement('b'), T0 + 11_000).refused[0].retryAfterMs).toBe(1_000);
  });

  it('given an account with more in the engine than one query needs, when its statements start, then they run at low priority while others run at normal priority', () => {
    const admission = new FairAdmission({ maxRunning: 4, perAccount: 10 });
    const priorities = (changes: AdmissionChanges) => changes.started.map((s) => s.priority);
    expect(priorities(admission.arrive(statement('a'), T0))).toEqual(['normal']);
    expect(priorities(admission.arrive(statement('a'), T0))).toEqual(['normal']);
    expect(priorities(admission.arrive(statement('a'), T0))).toEqual(['low']);
    const [b1, b2] = [statement('b'), statement('b')];
    expect(priorities(admission.arrive(b1, T0))).toEqual(['normal']);
    expect(ids(admission.arrive(b2, T0))).toEqual([]);
    expect(admission.leave(b1.id, T0).started).toEqual([{ request: b2, priority: 'normal' }]);
  });

  it('given a statement leaving, when its account asks again, then the place it held counts no more', () => {
    const admission = new FairAdmission({ maxRunning: 2, perAccount: 1 });
    const a = statement('a');
    admission.arrive(a, T0);
    admission.leave(a.id, T0);
    const again = statement('a');
    expect(ids(admission.arrive(again, T0))).toEqual([again.id]);
  });

  it('given a waiting statement, when its deadline comes, then it is refused with the time until a running statement is expected to end', () => {
    const admission = new FairAdmission({ maxRunning: 1, perAccount: 10 });
    admission.arrive(statement('a', T0 + 30_000), T0);
    const late = statement('b', T0 + 1_000);
    const early = statement('b', T0 + 500);
    admission.arrive(late, T0);
    admission.arrive(early, T0);
    expect(admission.nextDeadline()).toBe(T0 + 500);
    expect(admission.expire(T0 + 499).refused).toEqual([]);
    expect(admission.expire(T0 + 500)).toEqual({ started: [], refused: [{ request: early, reason: 'wait_expired', retryAfterMs: 500 }] });
    expect(admission.nextDeadline()).toBe(T0 + 1_000);
  });

  it('given a waiter past its deadline, when a place frees, then the waiter is refused instead of started with no time left', () => {
    const admission = new FairAdmission({ maxRunning: 1, perAccount: 10 });
    const running = statement('a', T0 + 30_000);
    admission.arrive(running, T0);
    const stale = statement('b', T0 + 100);
    const fresh = statement('c', T0 + 30_000);
    admission.arrive(stale, T0);
    admission.arrive(fresh, T0);
    const changes = admission.leave(running.id, T0 + 200);
    expect(ids(changes)).toEqual([fresh.id]);
    expect(changes.refused).toEqual([{ request: stale, reason: 'wait_expired', retryAfterMs: 0 }]);
  });

  it('given a free place, when a statement arrives already past its deadline, then it starts (out of time, not refused for a busy engine)', () => {
    const admission = new FairAdmission({ maxRunning: 2, perAccount: 10 });
    const late = statement('a', T0 - 1);
    expect(admission.arrive(late, T0)).toEqual({ started: [{ request: late, priority: 'normal' }], refused: [] });
  });

  it('given a waiting statement whose caller gives up, when it leaves, then it is forgotten and its account loses its turn', () => {
    const admission = new FairAdmission({ maxRunning: 1, perAccount: 10 });
    const first = statement('a');
    admission.arrive(first, T0);
    const gaveUp = statement('b');
    const c = statement('c');
    admission.arrive(gaveUp, T0);
    admission.arrive(c, T0);
    expect(ids(admission.leave(gaveUp.id, T0))).toEqual([]);
    expect(ids(admission.leave(first.id, T0))).toEqual([c.id]);
    expect(admission.leave(12345, T0)).toEqual({ started: [], refused: [] });
  });

  it('given an export running, when another export asks, then it waits while queries go past it', () => {
    const admission = new FairAdmission({ maxRunning: 4, perAccount: 10 });
    const exportA = statement('a', T0 + 300_000, 'export');
    expect(ids(admission.arrive(exportA, T0))).toEqual([exportA.id]);
    const exportB = statement('b', T0 + 300_000, 'export');
    const queryB = statement('b');
    expect(ids(admission.arrive(exportB, T0))).toEqual([]);
    expect(ids(admission.arrive(queryB, T0))).toEqual([queryB.id]);
    expect(ids(admission.leave(exportA.id, T0))).toEqual([exportB.id]);
  });
});
