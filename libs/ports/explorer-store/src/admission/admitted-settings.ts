import type { Admission } from './explorer-admission';

/** The explorer store's engine: chDB in this process, or a ClickHouse server. */
export type ExplorerEngine = 'chdb' | 'clickhouse';

/**
 * Settings of an admitted statement, for its own SETTINGS clause: the engine
 * stops it when its budget runs out (`max_execution_time`, seconds). A
 * low-priority statement (its account has several in the engine) runs on one
 * thread, and with chDB, whose CPU is this process's, at the lowest CPU
 * priority (nice 19; applied where the process may change thread priorities,
 * CAP_SYS_NICE, a no-op elsewhere): the CPU goes first to accounts asking
 * little, and to nothing else when they ask nothing.
 */
export function admittedSettings(admission: Admission, engine: ExplorerEngine): Record<string, number> {
  const settings: Record<string, number> = { max_execution_time: admission.budgetMs / 1000 };
  if (admission.priority === 'low') {
    settings.max_threads = 1;
    if (engine === 'chdb') settings.os_threads_nice_value_query = 19;
  }
  return settings;
}
