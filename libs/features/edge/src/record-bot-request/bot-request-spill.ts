import { BOT_REQUEST_RECORDED, BotRequestRecorded } from '@bpc/events';
import type { Logger } from 'pino';
import { EventSpill, SPILL_MAX_BYTES, SpillKind, SpillSink } from '../record-events/event-spill';

export const BOT_REQUEST_SPILL: SpillKind = { prefix: 'bot-requests', type: BOT_REQUEST_RECORDED, noun: 'bot requests' };

/** Bot requests the log could not take at shutdown (see `EventSpill`): `<data_dir>/edge-spill/bot-requests-…`. */
export class BotRequestSpill extends EventSpill<BotRequestRecorded> {
  constructor(dir: string, sink: SpillSink<BotRequestRecorded>, logger: Logger, maxBytes = SPILL_MAX_BYTES) {
    super(dir, sink, logger, maxBytes, BOT_REQUEST_SPILL);
  }
}
