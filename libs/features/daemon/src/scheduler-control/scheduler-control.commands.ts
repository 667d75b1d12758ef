/** Stop (or restart) pulling work on this daemon's scheduler; work already pulled finishes. */
export class SetSchedulerPaused {
  constructor(readonly paused: boolean) {}
}

export interface SchedulerToggled {
  readonly message: 'Scheduler paused' | 'Scheduler resumed';
}
