import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { AppError, Clock } from '@bpc/domain';
import { newQueueEvent, SCHEDULER_PAUSED, SCHEDULER_RESUMED, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { appendOrFail } from '../projection/append-or-fail';
import { DAEMON_ID } from '../shared/daemon-id';
import { SchedulerToggled, SetSchedulerPaused } from './scheduler-control.commands';
import { SchedulerSwitch } from './scheduler-switch';

@CommandHandler(SetSchedulerPaused)
export class SetSchedulerPausedHandler implements ICommandHandler<SetSchedulerPaused, SchedulerToggled> {
  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(EVENT_LOG) private readonly log: EventLog,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DAEMON_ID) private readonly daemonId: string,
    private readonly schedulerSwitch: SchedulerSwitch,
  ) {}

  async execute({ paused }: SetSchedulerPaused): Promise<SchedulerToggled> {
    if (!this.config.scheduler_control_api) {
      throw new AppError('FEATURE_DISABLED', 'the scheduler control API is not enabled (scheduler_control_api: false)');
    }
    const event = newQueueEvent(paused ? SCHEDULER_PAUSED : SCHEDULER_RESUMED, { daemonId: this.daemonId }, 'scheduler', this.clock.now());
    await appendOrFail(this.log, TOPICS.queue, [event]);
    this.schedulerSwitch.set(paused);
    return { message: paused ? 'Scheduler paused' : 'Scheduler resumed' };
  }
}
