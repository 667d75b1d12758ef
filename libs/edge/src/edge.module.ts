import { Module } from '@nestjs/common';
import { BotRequestRecorder } from './record-bot-request/bot-request-recorder';
import { ScheduleAutorecacheWhenPageServed } from './schedule-autorecache/schedule-autorecache-when-page-served';
import { ServePage } from './serve-page/serve-page';

/** The bot edge: serving, recording, autorecache scheduling (needs the event log, cache store and page refresher ports). */
@Module({
  providers: [ServePage, BotRequestRecorder, ScheduleAutorecacheWhenPageServed],
  exports: [ServePage, BotRequestRecorder],
})
export class EdgeModule {}
