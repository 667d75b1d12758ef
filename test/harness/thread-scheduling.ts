import { readdirSync, readFileSync } from 'node:fs';

/** The kernel's scheduling policies as `/proc/<pid>/task/<tid>/sched` reports them. */
export const SCHED_OTHER = 0;
export const SCHED_IDLE = 5;

/**
 * Thread `tid` of this process's policy, read back from the kernel; undefined
 * once the thread ended. A `sched` file without a policy line throws: read as
 * "not idle", it would let an assertion of no idle thread pass unchecked.
 */
export function threadPolicyOf(tid: number | string): number | undefined {
  let sched: string;
  try {
    sched = readFileSync(`/proc/self/task/${tid}/sched`, 'utf8');
  } catch {
    return undefined;
  }
  const policy = /^policy\s*:\s*(\d+)$/m.exec(sched);
  if (!policy) throw new Error(`no policy line in /proc/self/task/${tid}/sched`);
  return Number(policy[1]);
}

/** Threads of this process under SCHED_IDLE. */
export function idleThreadIds(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => (threadPolicyOf(tid) === SCHED_IDLE ? [Number(tid)] : []));
}
