import { Module } from '@nestjs/common';
import { EVENT_LOG } from '@bpc/event-log';
import { APP_CONFIG, LOGGER } from '@bpc/platform';
import { BOT_REQUEST_APPENDER, botRequestAppender } from './record-bot-request/bot-request-appender';
import { BotRequestRecorder } from './record-bot-request/bot-request-recorder';
import { ScheduleAutorecacheWhenPageServed } from './schedule-autorecache/schedule-autorecache-when-page-served';
import { AnnounceServing } from './serve-page/announce-serving';
import { ServePage } from './serve-page/serve-page';
import { WarnWebsitesWithoutToken } from './serve-page/warn-websites-without-token';

/** The bot edge: serving, recording, autorecache scheduling (needs the event log, cache store and page refresher ports). */
@Module({
  providers: [
    ServePage,
    BotRequestRecorder,
    ScheduleAutorecacheWhenPageServed,
    AnnounceServing,
    WarnWebsitesWithoutToken,
    {
      provide: BOT_REQUEST_APPENDER,
      inject: [APP_CONFIG, EVENT_LOG, LOGGER],
      useFactory: botRequestAppender,
    },
  ],
  exports: [ServePage, BotRequestRecorder],
})
export class EdgeModule {}
