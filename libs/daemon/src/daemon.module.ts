import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import type { AppConfig } from '@bpc/config';
import { APP_CONFIG, HealthModule } from '@bpc/platform';
import { GetStatusHandler } from './get-status/get-status.handler';
import { SCHEDULER_VIEW, SchedulerView } from './get-status/scheduler-view';
import { DaemonExceptionFilter } from './http/daemon-exception.filter';
import { RecacheController } from './http/recache.controller';
import { StatusController } from './http/status.controller';
import { RequestRecacheHandler } from './request-recache/request-recache.handler';

/** Until the scheduler runs in this app: nothing pulled, every tab free. */
const idleScheduler = (tabs: number): SchedulerView => ({ lastTick: () => null, internalQueueSize: () => 0, freeTabs: () => tabs });

/** The internal cache daemon API (spec/daemon-api.md). */
@Module({
  imports: [CqrsModule.forRoot(), HealthModule],
  controllers: [RecacheController, StatusController],
  providers: [
    RequestRecacheHandler,
    GetStatusHandler,
    { provide: APP_FILTER, useClass: DaemonExceptionFilter },
    { provide: SCHEDULER_VIEW, useFactory: (config: AppConfig) => idleScheduler(config.render_service.tabs), inject: [APP_CONFIG] },
  ],
})
export class DaemonModule {}
