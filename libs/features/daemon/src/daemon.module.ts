import { Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { CqrsModule } from '@nestjs/cqrs';
import { CacheOperationsModule } from '@bpc/cache-operations';
import { APP_CONFIG, HealthModule, MetricsModule } from '@bpc/platform';
import { GetStatusHandler } from './get-status/get-status.handler';
import { SCHEDULER_VIEW } from './get-status/scheduler-view';
import { RecacheScheduler } from './scheduler/recache-scheduler';
import { SchedulerMetrics } from './scheduler/scheduler-metrics';
import { PauseHostRecacheHandler, ResumeHostRecacheHandler } from './host-recache-pause/host-recache-pause.handlers';
import { DaemonExceptionFilter } from './http/daemon-exception.filter';
import { RecacheController } from './http/recache.controller';
import { ResponseEnvelope } from './http/response-envelope';
import { SchedulerController } from './http/scheduler.controller';
import { StatusController } from './http/status.controller';
import { PurgeQueueHandler } from './purge-queue/purge-queue.handler';
import { SetSchedulerPausedHandler } from './scheduler-control/scheduler-control.handler';
import { SchedulerSwitch } from './scheduler-control/scheduler-switch';
import { DAEMON_ID, daemonIdFrom } from './shared/daemon-id';
import { WarmSitemaps } from './warm-sitemaps/warm-sitemaps.service';

/**
 * The internal cache daemon API (spec/daemon-api.md), the scheduler and its
 * metrics, and the sitemap warm-up. The app provides the ports, the
 * warm-up turns (`WARM_UP_TURNS`) among them.
 */
@Module({
  imports: [CqrsModule.forRoot(), HealthModule, MetricsModule, CacheOperationsModule],
  controllers: [RecacheController, StatusController, SchedulerController],
  providers: [
    PurgeQueueHandler,
    PauseHostRecacheHandler,
    ResumeHostRecacheHandler,
    SetSchedulerPausedHandler,
    GetStatusHandler,
    SchedulerSwitch,
    ResponseEnvelope,
    { provide: APP_FILTER, useClass: DaemonExceptionFilter },
    { provide: DAEMON_ID, useFactory: daemonIdFrom, inject: [APP_CONFIG] },
    RecacheScheduler,
    SchedulerMetrics,
    { provide: SCHEDULER_VIEW, useExisting: RecacheScheduler },
    WarmSitemaps,
  ],
})
export class DaemonModule {}
