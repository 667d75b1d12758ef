import type { Admission } from './explorer-admission';

/**
 * Settings of an admitted statement, for its own SETTINGS clause: the engine
 * stops it when its budget runs out (`max_execution_time`, seconds). A
 * low-priority statement (its account has several in the engine) runs on one
 * thread, and with an engine in this process (chDB), whose CPU is the process's, at the lowest CPU
 * priority (nice 19; applied where the process may change thread priorities,
 * CAP_SYS_NICE, a no-op elsewhere): the CPU goes first to accounts asking
 * little, and to nothing else when they ask nothing.
 */
export function admittedSettings(admission: Admission, inProcess: boolean): Record<string, number> {
  const settings: Record<string, number> = { max_execution_time: admission.budgetMs / 1000 };
  if (admission.priority === 'low') {
    settings.max_threads = 1;
    if (inProcess) settings.os_threads_nice_value_query = 19;
  }
  return settings;
}
