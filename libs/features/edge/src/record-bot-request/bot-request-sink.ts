import type { BotRequestRecorded } from '@bpc/events';

/**
 * Where the edge's recorded bot requests go: the event log's bot request
 * topic, through the adapter the edge's composition picks
 * (`openBotRequestSink`). The recorder in front of it buffers, retries and
 * spills (see `BotRequestRecorder`); the sink only appends.
 */
export interface BotRequestSink {
  /**
   * Appends the events in their order, with the event log's guarantees:
   * resolves once every one is durable; a rejected append may have stored
   * some of them (they keep their ids, so appending them again is safe).
   */
  append(events: readonly BotRequestRecorded[]): Promise<void>;
  /** Waits for appends in flight, then releases what the sink opened itself. */
  close(): Promise<void>;
}

export const BOT_REQUEST_SINK = Symbol('BOT_REQUEST_SINK');
