/**
 * What the status snapshot reads from the scheduler and the renderer. The
 * scheduler provides the live implementation; until it runs, the idle view
 * reports an empty internal queue and every tab free.
 */
export interface SchedulerView {
  lastTick(): Date | null;
  internalQueueSize(): number;
  freeTabs(): number;
}

export const SCHEDULER_VIEW = Symbol('SCHEDULER_VIEW');
