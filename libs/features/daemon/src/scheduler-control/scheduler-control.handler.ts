import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { AppError, Clock } from '@bpc/domain';
import { newQueueEvent, SCHEDULER_PAUSED, SCHEDULER_RESUMED, TOPICS } from '@bpc/events';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { APP_CONFIG, CLOCK, LOGGER } from '@bpc/platform';
import type { Logger } from 'pino';
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
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute({ paused }: SetSchedulerPaused): Promise<SchedulerToggled> {
    if (!this.config.scheduler_control_api) {
      throw new AppError('FEATURE_DISABLED', 'the scheduler control API is not enabled (scheduler_control_api: false)');
    }
    // The switch is this process's own state: an emergency pause works even when the log is down.
    this.schedulerSwitch.set(paused);
    const event = newQueueEvent(paused ? SCHEDULER_PAUSED : SCHEDULER_RESUMED, { daemonId: this.daemonId }, 'scheduler', this.clock.now());
    await this.log.append(TOPICS.queue, [event]).catch((error) => this.logger.error({ err: error, type: event.type }, 'scheduler switch event not recorded'));
    return { message: paused ? 'Scheduler paused' : 'Scheduler resumed' };
  }
}
