/** Token of the process's `InProcessSignals`. */
export const IN_PROCESS_SIGNALS = Symbol('IN_PROCESS_SIGNALS');

/**
 * Named signals between the apps of one process (standalone runs them all in
 * one): latency hints only, never the source of truth — whatever they
 * announce is also found by polling, which covers other processes.
 */
export class InProcessSignals {
  private readonly listeners = new Map<string, Set<() => void>>();

  /** Subscribes; returns the unsubscribe. */
  on(name: string, listener: () => void): () => void {
    let set = this.listeners.get(name);
    if (!set) this.listeners.set(name, (set = new Set()));
    set.add(listener);
    return () => void set.delete(listener);
  }

  emit(name: string): void {
    for (const listener of this.listeners.get(name) ?? []) listener();
  }
}
