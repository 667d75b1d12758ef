/** Render-service capacity as the status snapshot reports it. */
export interface RenderCapacity {
  readonly freeTabs: number;
  readonly reservedForOnline: number;
  readonly availableForRecache: number;
}

/** What the status snapshot reads from the scheduler and the renderer. */
export interface SchedulerView {
  lastTick(): Date | null;
  internalQueueSize(): number;
  renderCapacity(): RenderCapacity;
}

export const SCHEDULER_VIEW = Symbol('SCHEDULER_VIEW');
