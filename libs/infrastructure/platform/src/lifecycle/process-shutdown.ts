/** Token of the process's `ProcessShutdown`. */
export const PROCESS_SHUTDOWN = Symbol('PROCESS_SHUTDOWN');

/**
 * Whether the process has begun shutting down. Shared by every app of the
 * process, so all of them answer not ready at once, even those (the
 * projector) that keep running while the others drain.
 */
export class ProcessShutdown {
  private begun = false;

  begin(): void {
    this.begun = true;
  }

  get started(): boolean {
    return this.begun;
  }
}
