import { readdirSync, readFileSync } from 'node:fs';

/** The kernel's scheduling policies as `/proc/<pid>/task/<tid>/sched` reports them. */
export const SCHED_OTHER = 0;
export const SCHED_IDLE = 5;

/** Thread `tid` of this process's policy, read back from the kernel; undefined once the thread ended. */
export function threadPolicyOf(tid: number | string): number | undefined {
  try {
    return Number(/^policy\s*:\s*(\d+)$/m.exec(readFileSync(`/proc/self/task/${tid}/sched`, 'utf8'))![1]);
  } catch {
    return undefined;
  }
}

/** Threads of this process under SCHED_IDLE. */
export function idleThreadIds(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => (threadPolicyOf(tid) === SCHED_IDLE ? [Number(tid)] : []));
}
