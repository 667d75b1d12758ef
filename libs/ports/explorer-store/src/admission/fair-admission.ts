/**
 * Which Data Explorer statements may run on the engine now, which wait and
 * which are refused: pure state, no timers and no I/O (the clock arrives as
 * `nowMs`), so every rule is testable on its own. `ExplorerAdmission` is the
 * thin adapter that turns its decisions into promises and a timer.
 *
 * Rules:
 * - at most `maxRunning` statements run at once, and at most one of them is
 *   an export (chDB runs parameterised one-shot statements, which exports
 *   are, one at a time per process: a second export would hold a place only
 *   to wait inside the engine);
 * - an account may have at most `perAccount` statements waiting or running;
 *   one more is refused at once;
 * - the last free place goes only to an account with nothing running, so an
 *   account arriving while another fills the engine starts at once;
 * - waiting statements are served accounts in turn (round robin), each
 *   account's own in arrival order;
 * - a statement still waiting at its deadline is refused;
 * - a statement starts at low priority when its account has more in the
 *   engine than one query needs (its count and its page): the engine's CPU
 *   then goes first to the accounts asking little.
 *
 * A refusal says when to try again: when the first statement that frees a
 * place (one of the account's own when it is full) is expected to end, by the
 * recent run times, and never later than that statement's deadline.
 */

export const STATEMENT_KINDS = ['query', 'export'] as const;
export type StatementKind = (typeof STATEMENT_KINDS)[number];

export interface StatementRequest {
  readonly id: number;
  readonly account: string;
  readonly kind: StatementKind;
  /** When the statement's time budget ends, in ms on the caller's clock (counted from the request's arrival). */
  readonly deadlineMs: number;
}

export interface AdmissionLimits {
  /** Statements running at once. */
  readonly maxRunning: number;
  /** Statements one account may have waiting or running. */
  readonly perAccount: number;
}

export type StatementPriority = 'normal' | 'low';

export interface StartedStatement {
  readonly request: StatementRequest;
  readonly priority: StatementPriority;
}

export type RefusalReason = 'account_full' | 'wait_expired';

export interface Refusal {
  readonly request: StatementRequest;
  readonly reason: RefusalReason;
  /** How long the caller should wait before trying again (0 when a place may already be free). */
  readonly retryAfterMs: number;
}

/** What one call changed: statements that may run now, statements refused. */
export interface AdmissionChanges {
  readonly started: readonly StartedStatement[];
  readonly refused: readonly Refusal[];
}

const MAX_RUNNING_EXPORTS = 1;
/** Statements of one query run side by side (its count and its page); an account with more in the engine runs them at low priority. */
const NORMAL_PRIORITY_UP_TO = 2;
/** Expected run time of a statement before any has ended. */
const FIRST_RUN_ESTIMATE_MS = 1_000;
/** Weight of the latest run time in the running estimate. */
const RUN_TIME_WEIGHT = 0.2;

interface Running {
  readonly request: StatementRequest;
  readonly startedMs: number;
}

export class FairAdmission {
  readonly #running = new Map<number, Running>();
  /** Waiting statements per account, oldest first; an account is listed only while it has some. */
  readonly #waiting = new Map<string, StatementRequest[]>();
  /** Accounts with waiting statements, the next to be served first. */
  #turns: string[] = [];
  #typicalRunMs = FIRST_RUN_ESTIMATE_MS;

  constructor(private readonly limits: AdmissionLimits) {
    if (!(limits.maxRunning >= 1) || !(limits.perAccount >= 1)) throw new RangeError('admission limits must be at least 1');
  }

  /** A statement asks to run: it starts, waits, or is refused at once. */
  arrive(request: StatementRequest, nowMs: number): AdmissionChanges {
    if (this.#held(request.account) >= this.limits.perAccount) {
      const own = [...this.#running.values()].filter((r) => r.request.account === request.account);
      return { started: [], refused: [{ request, reason: 'account_full', retryAfterMs: this.#untilOneEnds(own.length > 0 ? own : [...this.#running.values()], nowMs) }] };
    }
    // Nothing that waits could take a free place (`#fill` runs after every change), so a newcomer allowed one starts at once, even past its deadline: it ran out of time, the engine was not busy.
    if (this.#mayStart(request)) return { started: [this.#start(request, nowMs)], refused: [] };
    const queue = this.#waiting.get(request.account);
    if (queue) queue.push(request);
    else {
      this.#waiting.set(request.account, [request]);
      this.#turns.push(request.account);
    }
    return { started: [], refused: [] };
  }

  /** A statement ended, or its caller gave up on it: its place goes to the next in turn. Unknown ids are ignored. */
  leave(id: number, nowMs: number): AdmissionChanges {
    const ended = this.#running.get(id);
    if (ended) {
      this.#running.delete(id);
      this.#typicalRunMs += RUN_TIME_WEIGHT * (nowMs - ended.startedMs - this.#typicalRunMs);
    } else {
      for (const [account, queue] of this.#waiting) {
        const at = queue.findIndex((r) => r.id === id);
        if (at < 0) continue;
        queue.splice(at, 1);
        if (queue.length === 0) this.#forget(account);
        break;
      }
    }
    return this.#fill(nowMs);
  }

  /** Refuses the waiting statements whose deadline has come. */
  expire(nowMs: number): AdmissionChanges {
    const refused: Refusal[] = [];
    for (const [account, queue] of [...this.#waiting]) {
      const due = queue.filter((r) => r.deadlineMs <= nowMs);
      if (due.length === 0) continue;
      const left = queue.filter((r) => r.deadlineMs > nowMs);
      if (left.length > 0) this.#waiting.set(account, left);
      else this.#forget(account);
      const retryAfterMs = this.#untilOneEnds([...this.#running.values()], nowMs);
      refused.push(...due.map((request) => ({ request, reason: 'wait_expired' as const, retryAfterMs })));
    }
    return { started: [], refused };
  }

  /** The earliest deadline of a waiting statement: when `expire` has work next. */
  nextDeadline(): number | undefined {
    let next: number | undefined;
    for (const queue of this.#waiting.values()) for (const r of queue) next = next === undefined ? r.deadlineMs : Math.min(next, r.deadlineMs);
    return next;
  }

  get running(): number {
    return this.#running.size;
  }

  get waiting(): number {
    let n = 0;
    for (const queue of this.#waiting.values()) n += queue.length;
    return n;
  }

  /** Starts waiting statements, accounts in turn, while the rules allow; a waiter already past its deadline is refused instead. */
  #fill(nowMs: number): AdmissionChanges {
    const expired = this.expire(nowMs);
    const started: StartedStatement[] = [];
    for (;;) {
      const turn = this.#turns.findIndex((account) => this.#startable(account) !== undefined);
      if (turn < 0) break;
      const account = this.#turns[turn];
      const queue = this.#waiting.get(account)!;
      const next = this.#startable(account)!;
      queue.splice(queue.indexOf(next), 1);
      this.#turns.splice(turn, 1);
      if (queue.length > 0) this.#turns.push(account);
      else this.#waiting.delete(account);
      started.push(this.#start(next, nowMs));
    }
    return { started, refused: expired.refused };
  }

  /** `request`, no longer waiting, joins the running statements. */
  #start(request: StatementRequest, nowMs: number): StartedStatement {
    const priority = this.#held(request.account) + 1 > NORMAL_PRIORITY_UP_TO ? 'low' : 'normal';
    this.#running.set(request.id, { request, startedMs: nowMs });
    return { request, priority };
  }

  /** The account's oldest waiting statement that may start now, if any. */
  #startable(account: string): StatementRequest | undefined {
    return this.#waiting.get(account)?.find((r) => this.#mayStart(r));
  }

  #mayStart(request: StatementRequest): boolean {
    const running = [...this.#running.values()].map((r) => r.request);
    const free = this.limits.maxRunning - running.length;
    if (free < 1 || (free === 1 && running.some((r) => r.account === request.account))) return false;
    return request.kind === 'query' || running.filter((r) => r.kind === 'export').length < MAX_RUNNING_EXPORTS;
  }

  /** Statements of the account waiting or running. */
  #held(account: string): number {
    return [...this.#running.values()].filter((r) => r.request.account === account).length + (this.#waiting.get(account)?.length ?? 0);
  }

  #forget(account: string): void {
    this.#waiting.delete(account);
    this.#turns = this.#turns.filter((a) => a !== account);
  }

  /** When the first of `running` is expected to end: by the recent run times, at the latest at its deadline. */
  #untilOneEnds(running: readonly Running[], nowMs: number): number {
    if (running.length === 0) return 0;
    const ends = running.map((r) => Math.min(r.request.deadlineMs, Math.max(nowMs, r.startedMs + this.#typicalRunMs)));
    return Math.max(0, Math.min(...ends) - nowMs);
  }
}
