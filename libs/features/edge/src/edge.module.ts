import path from 'node:path';
import { Module } from '@nestjs/common';
import type { AppConfig } from '@bpc/config';
import { EVENT_LOG, EventLog } from '@bpc/event-log';
import { TOPICS } from '@bpc/events';
import { APP_CONFIG, LOGGER } from '@bpc/platform';
import type { Logger } from 'pino';
import { BotRequestRecorder } from './record-bot-request/bot-request-recorder';
import { BotRequestSpill } from './record-bot-request/bot-request-spill';
import { SPILL_DIR } from './record-events/event-spill';
import { RENDER_FACT_SPILL, RenderFactRecorder, RenderFactSpill } from './record-render/render-fact-recorder';
import { ScheduleAutorecacheWhenPageServed } from './schedule-autorecache/schedule-autorecache-when-page-served';
import { AnnounceServing } from './serve-page/announce-serving';
import { ServePage } from './serve-page/serve-page';
import { WarnWebsitesWithoutToken } from './serve-page/warn-websites-without-token';

/** The bot edge: serving, recording (bot requests, miss render facts), autorecache scheduling (needs the event log, cache store and page refresher ports). */
@Module({
  providers: [
    ServePage,
    BotRequestRecorder,
    RenderFactRecorder,
    ScheduleAutorecacheWhenPageServed,
    AnnounceServing,
    WarnWebsitesWithoutToken,
    {
      provide: BotRequestSpill,
      inject: [APP_CONFIG, EVENT_LOG, LOGGER],
      useFactory: (config: AppConfig, log: EventLog, logger: Logger) =>
        new BotRequestSpill(path.join(config.data_dir, SPILL_DIR), { append: (events) => log.append(TOPICS.botRequests, events) }, logger.child({ component: 'bot-request-spill' })),
    },
    {
      provide: RenderFactSpill,
      inject: [APP_CONFIG, EVENT_LOG, LOGGER],
      useFactory: (config: AppConfig, log: EventLog, logger: Logger) =>
        new RenderFactSpill(path.join(config.data_dir, SPILL_DIR), { append: (events) => log.append(TOPICS.renders, events) }, logger.child({ component: 'render-fact-spill' }), undefined, RENDER_FACT_SPILL),
    },
  ],
  exports: [ServePage, BotRequestRecorder, RenderFactRecorder],
})
export class EdgeModule {}
