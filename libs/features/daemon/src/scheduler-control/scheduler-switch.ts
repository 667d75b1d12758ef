import { Injectable } from '@nestjs/common';

/**
 * Whether this daemon's scheduler pulls work. Per process: pausing one
 * daemon does not pause another replica, and a restart runs again.
 */
@Injectable()
export class SchedulerSwitch {
  private paused = false;

  isPaused(): boolean {
    return this.paused;
  }

  set(paused: boolean): void {
    this.paused = paused;
  }
}
