import { Inject, Injectable } from '@nestjs/common';
import { IN_PROCESS_SIGNALS, InProcessSignals } from '@bpc/platform';

const WORK_QUEUED = 'queue:work-queued';

/**
 * In-process hint that recache work was queued (through the daemon's API,
 * or the public API running in the same process), so the daemon's scheduler
 * pulls at once instead of at the next tick. Only a latency shortcut: the tick
 * still finds everything (work queued through another process included).
 */
@Injectable()
export class QueueActivity {
  constructor(@Inject(IN_PROCESS_SIGNALS) private readonly signals: InProcessSignals) {}

  /** Returns the unsubscribe. */
  onWorkQueued(listener: () => void): () => void {
    return this.signals.on(WORK_QUEUED, listener);
  }

  workQueued(): void {
    this.signals.emit(WORK_QUEUED);
  }
}
