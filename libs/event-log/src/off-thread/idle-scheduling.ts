import { execFile } from 'node:child_process';
import { readFileSync, readlinkSync } from 'node:fs';
import type { LogSink } from '@bpc/domain';

/**
 * Linux scheduling policies a worker thread is switched between:
 * `SCHED_IDLE` runs it only on CPU time nothing else wants, `SCHED_OTHER`
 * (the default) gives it a fair share.
 */
export type ThreadPolicy = 'idle' | 'normal';

/** The kernel's id of the calling thread (Linux: `/proc/thread-self`); undefined where there is none. */
export function callingThreadId(): number | undefined {
  try {
    return threadIdIn(readlinkSync('/proc/thread-self'));
  } catch {
    return undefined;
  }
}

/** The thread id in a `/proc/thread-self` link (`<pid>/task/<tid>`). */
export function threadIdIn(link: string): number | undefined {
  const match = /^\d+\/task\/(\d+)$/.exec(link);
  return match ? Number(match[1]) : undefined;
}

/** Bit of CAP_SYS_NICE in a capability mask. */
const CAP_SYS_NICE = 23n;
/** RLIMIT_NICE that lets a thread go back to nice 0 (the limit is 20 − nice). */
const NICE_LIMIT_FOR_NORMAL = 20;

/**
 * Whether a process with this `/proc/self/status` and `/proc/self/limits`
 * may move a thread back from `SCHED_IDLE` to `SCHED_OTHER` at nice 0:
 * anyone may move a thread to `SCHED_IDLE`, but leaving it takes
 * CAP_SYS_NICE or an RLIMIT_NICE of 20 (a container without the capability
 * has neither by default).
 */
export function mayLeaveIdle(status: string, limits: string): boolean {
  const capabilities = /^CapEff:\s*([0-9a-f]+)$/m.exec(status);
  if (capabilities && (BigInt(`0x${capabilities[1]}`) >> CAP_SYS_NICE) & 1n) return true;
  const nice = /^Max nice priority\s+(\d+|unlimited)\s/m.exec(limits);
  return nice !== null && (nice[1] === 'unlimited' || Number(nice[1]) >= NICE_LIMIT_FOR_NORMAL);
}

/** `mayLeaveIdle` for this process; false where `/proc` does not tell. */
export function processMayLeaveIdle(): boolean {
  try {
    return mayLeaveIdle(readFileSync('/proc/self/status', 'utf8'), readFileSync('/proc/self/limits', 'utf8'));
  } catch {
    return false;
  }
}

/** Sets thread `tid`'s policy with util-linux's `chrt` (Node has no call for it), or the program `chrt` names; rejects with its error. */
export function setThreadPolicy(tid: number, policy: ThreadPolicy, chrt = 'chrt'): Promise<void> {
  const args = [policy === 'idle' ? '--idle' : '--other', '--pid', '0', String(tid)];
  return new Promise((resolve, reject) => execFile(chrt, args, (error, _stdout, stderr) => (error ? reject(new Error(`${chrt} ${args.join(' ')}: ${stderr.trim() || error.message}`)) : resolve())));
}

/**
 * The scheduling of one worker thread that does background work (and of the
 * thread that replaces it if it dies): idle CPU time only while its owner
 * keeps up, a fair share while it is behind. Only where this process may
 * move the thread back (`processMayLeaveIdle`): a thread that could not
 * leave idle time would fall behind for good on a busy machine. A change
 * that fails (no chrt, not permitted) is logged, and scheduling stays as it
 * is from then on.
 */
export class IdleWhileCaughtUp {
  /** The thread's kernel id, once it reported it. */
  private tid?: number;
  /** The policy the thread should have, and the one it was given. */
  private wanted: ThreadPolicy;
  private applied: ThreadPolicy = 'normal';
  /** Changes run one after the other. */
  private change: Promise<void> = Promise.resolve();
  private enabled: boolean;

  /** `chrt`: the program that changes a thread's policy (see `setThreadPolicy`). */
  constructor(
    private readonly label: string,
    private readonly log: LogSink,
    private readonly chrt = 'chrt',
  ) {
    this.enabled = processMayLeaveIdle();
    this.wanted = this.enabled ? 'idle' : 'normal';
    if (!this.enabled) log.info({}, `${label} runs at normal priority: this process may not move a thread back from idle scheduling (that takes CAP_SYS_NICE or RLIMIT_NICE 20)`);
  }

  /** A new thread (it starts at normal priority, as the thread that made it). */
  threadStarted(tid: number): void {
    this.tid = tid;
    this.applied = 'normal';
    this.apply();
  }

  threadEnded(): void {
    this.tid = undefined;
  }

  /** Its owner is behind (its backlog grew: idle time was not enough), or no longer. */
  keepUp(behind: boolean): void {
    if (!this.enabled) return;
    this.wanted = behind ? 'normal' : 'idle';
    this.apply();
  }

  private apply(): void {
    this.change = this.change.then(async () => {
      const { tid, wanted } = this;
      if (tid === undefined || wanted === this.applied) return;
      try {
        await setThreadPolicy(tid, wanted, this.chrt);
        if (this.tid === tid) this.applied = wanted;
      } catch (error) {
        // A thread that ended meanwhile has nothing to change.
        if (this.tid !== tid) return;
        this.enabled = false;
        this.wanted = this.applied;
        this.log.warn({ err: error, policy: wanted, kept: this.applied }, `${this.label}: could not change its scheduling`);
      }
    });
  }
}
