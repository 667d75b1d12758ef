/**
 * Which Data Explorer statements may run on the engine now, which wait and
 * which are refused: pure state, no timers and no I/O (the clock arrives as
 * `nowMs`), so every rule is testable on its own. `ExplorerAdmission` is the
 * thin adapter that turns its decisions into promises and timers.
 *
 * Rules:
 * - at most `maxRunning` statements run at once, and at most one of them is
 *   an export (chDB runs parameterised one-shot statements, which exports
 *   are, one at a time per process: a second export would hold a place only
 *   to wait inside the engine);
 * - an account may have at most `perAccount` statements waiting or running;
 *   one more is refused at once, with the time until the first of its own
 *   statements must be gone (its deadline);
 * - the last free place goes only to an account with nothing running, so an
 *   account arriving while another fills the engine starts at once;
 * - waiting statements are served accounts in turn (round robin), each
 *   account's own in arrival order;
 * - a statement still waiting at its deadline is refused, with the time until
 *   the first running statement must have ended (a place is free by then).
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

export type RefusalReason = 'account_full' | 'wait_expired';

export interface Refusal {
  readonly request: StatementRequest;
  readonly reason: RefusalReason;
  /** How long the caller should wait before trying again (0 when a place may already be free). */
  readonly retryAfterMs: number;
}

/** What one call changed: statements that may run now, statements refused. */
export interface AdmissionChanges {
  readonly started: readonly StatementRequest[];
  readonly refused: readonly Refusal[];
}

const MAX_RUNNING_EXPORTS = 1;

export class FairAdmission {
  readonly #running = new Map<number, StatementRequest>();
  /** Waiting statements per account, oldest first; an account is listed only while it has some. */
  readonly #waiting = new Map<string, StatementRequest[]>();
  /** Accounts with waiting statements, the next to be served first. */
  #turns: string[] = [];

  constructor(private readonly limits: AdmissionLimits) {
    if (!(limits.maxRunning >= 1) || !(limits.perAccount >= 1)) throw new RangeError('admission limits must be at least 1');
  }

  /** A statement asks to run: it starts, waits, or is refused at once. */
  arrive(request: StatementRequest, nowMs: number): AdmissionChanges {
    const held = [...this.#running.values(), ...(this.#waiting.get(request.account) ?? [])].filter((r) => r.account === request.account);
    if (held.length >= this.limits.perAccount) {
      const firstGone = Math.min(...held.map((r) => r.deadlineMs));
      return { started: [], refused: [{ request, reason: 'account_full', retryAfterMs: Math.max(0, firstGone - nowMs) }] };
    }
    // Nothing that waits could take a free place (`#fill` runs after every change), so a newcomer allowed one starts at once, even past its deadline: it ran out of time, the engine was not busy.
    if (this.#mayStart(request)) {
      this.#running.set(request.id, request);
      return { started: [request], refused: [] };
    }
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
    if (!this.#running.delete(id)) {
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
      refused.push(...due.map((request) => ({ request, reason: 'wait_expired' as const, retryAfterMs: this.#untilAPlaceIsFree(nowMs) })));
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
    const started: StatementRequest[] = [];
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
      this.#running.set(next.id, next);
      started.push(next);
    }
    return { started, refused: expired.refused };
  }

  /** The account's oldest waiting statement that may start now, if any. */
  #startable(account: string): StatementRequest | undefined {
    return this.#waiting.get(account)?.find((r) => this.#mayStart(r));
  }

  #mayStart(request: StatementRequest): boolean {
    const running = [...this.#running.values()];
    const free = this.limits.maxRunning - running.length;
    if (free < 1 || (free === 1 && running.some((r) => r.account === request.account))) return false;
    return request.kind === 'query' || running.filter((r) => r.kind === 'export').length < MAX_RUNNING_EXPORTS;
  }

  #forget(account: string): void {
    this.#waiting.delete(account);
    this.#turns = this.#turns.filter((a) => a !== account);
  }

  #untilAPlaceIsFree(nowMs: number): number {
    const deadlines = [...this.#running.values()].map((r) => r.deadlineMs);
    return deadlines.length === 0 ? 0 : Math.max(0, Math.min(...deadlines) - nowMs);
  }
}
