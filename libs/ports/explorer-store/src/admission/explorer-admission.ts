import { type Clock, systemClock } from '@bpc/domain';
import { type AdmissionChanges, type AdmissionLimits, FairAdmission, type RefusalReason, type StatementKind, type StatementPriority } from './fair-admission';

/** A statement that may not run: its account has too many, or it waited its whole budget. */
export class AdmissionRefusedError extends Error {
  override readonly name = 'AdmissionRefusedError';

  constructor(
    readonly reason: RefusalReason,
    /** Whole seconds to wait before trying again (at least 1): the `Retry-After` of the answer. */
    readonly retryAfterS: number,
  ) {
    super(reason === 'account_full' ? 'the account has as many Data Explorer statements waiting or running as it may' : 'the engine had no place for the statement within its time budget');
  }
}

/** What a statement may use once admitted. */
export interface Admission {
  /** Time budget left, ms (at least 1): the engine must stop the statement then. */
  readonly budgetMs: number;
  /** `low`: its account has several statements in the engine; the engine should favour others (see `admittedSettings`). */
  readonly priority: StatementPriority;
}

/** One statement's place in the admission queue. */
export interface StatementTicket {
  /** Resolves once the statement may run; rejects with `AdmissionRefusedError`. */
  readonly admitted: Promise<Admission>;
  /** The statement ended, or will not run after all: its place goes to the next. Idempotent. */
  leave(): void;
}

interface Pending {
  readonly resolve: (admission: Admission) => void;
  readonly reject: (error: AdmissionRefusedError) => void;
  readonly deadlineMs: number;
}

/**
 * Fair admission in front of the explorer store, shared by both executors
 * (chDB in-process, a ClickHouse server through @clickhouse/client): Data
 * Explorer statements and exports wait here, not in the engine or in libuv's
 * thread pool, where one account's flood would queue everyone behind it. The
 * rules are `FairAdmission`'s; this adapter keeps the promises and one timer
 * for the earliest waiting deadline. Deadlines are on `clock`, so a test can
 * drive time and call `expireDue()` itself.
 */
export class ExplorerAdmission {
  readonly #rules: FairAdmission;
  readonly #pending = new Map<number, Pending>();
  #lastId = 0;
  #timer: NodeJS.Timeout | undefined;
  #timerAt: number | undefined;

  constructor(
    limits: AdmissionLimits,
    private readonly clock: Clock = systemClock,
  ) {
    this.#rules = new FairAdmission(limits);
  }

  /**
   * Asks a place for one statement of `account`, whose budget ends at
   * `deadlineMs`. Throws `AdmissionRefusedError` at once when the account is
   * full, so a caller can refuse before it changes anything.
   */
  enter(account: string, deadlineMs: number, kind: StatementKind = 'query'): StatementTicket {
    const id = ++this.#lastId;
    let pending!: Pending;
    const admitted = new Promise<Admission>((resolve, reject) => (pending = { resolve, reject, deadlineMs }));
    // A refusal may come before the holder awaits (an export awaits its turn later): never an unhandled rejection.
    admitted.catch(() => undefined);
    this.#pending.set(id, pending);
    const changes = this.#rules.arrive({ id, account, kind, deadlineMs }, this.clock.now());
    const refusedNow = changes.refused.find((r) => r.request.id === id);
    if (refusedNow) {
      this.#pending.delete(id);
      this.#apply(changes);
      throw new AdmissionRefusedError(refusedNow.reason, retryAfterSeconds(refusedNow.retryAfterMs));
    }
    this.#apply(changes);
    let left = false;
    return {
      admitted,
      leave: () => {
        if (left) return;
        left = true;
        this.#pending.delete(id);
        this.#apply(this.#rules.leave(id, this.clock.now()));
      },
    };
  }

  /** Runs `work` once admitted, and frees the place when it settles. */
  async run<T>(account: string, deadlineMs: number, work: (admission: Admission) => Promise<T>): Promise<T> {
    const ticket = this.enter(account, deadlineMs);
    try {
      return await work(await ticket.admitted);
    } finally {
      ticket.leave();
    }
  }

  /** Refuses the waiting statements whose deadline has passed (the timer calls it). */
  expireDue(): void {
    this.#apply(this.#rules.expire(this.clock.now()));
  }

  /** Statements running and waiting now (for metrics and tests). */
  get load(): { readonly running: number; readonly waiting: number } {
    return { running: this.#rules.running, waiting: this.#rules.waiting };
  }

  #apply(changes: AdmissionChanges): void {
    const now = this.clock.now();
    for (const { request, reason, retryAfterMs } of changes.refused) {
      const pending = this.#pending.get(request.id);
      this.#pending.delete(request.id);
      pending?.reject(new AdmissionRefusedError(reason, retryAfterSeconds(retryAfterMs)));
    }
    for (const { request, priority } of changes.started) {
      const pending = this.#pending.get(request.id);
      // A newcomer past its deadline still gets 1 ms, and the engine stops it: 0 would mean no limit.
      pending?.resolve({ budgetMs: Math.max(1, pending.deadlineMs - now), priority });
    }
    this.#armTimer();
  }

  #armTimer(): void {
    const next = this.#rules.nextDeadline();
    if (next === this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timerAt = next;
    if (next === undefined) return;
    this.#timer = setTimeout(() => {
      this.#timerAt = undefined;
      this.expireDue();
    }, Math.max(0, next - this.clock.now()));
    this.#timer.unref();
  }
}

function retryAfterSeconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
