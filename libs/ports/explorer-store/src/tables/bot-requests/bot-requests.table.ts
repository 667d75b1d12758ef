/** One row per bot request the edge served (001_bot_requests.sql, columns added since in 009_bot_request_fields.sql): the events explorer, the insights, alert rules and cache-entry look-ups read it. */
export const BOT_REQUESTS_TABLE = 'bot_requests';

/**
 * Intake of `BotRequestRecorded` v1 envelopes, one per row as the log holds
 * them (a Null table): its view writes their rows into `bot_requests`, the
 * table's one mapping (004_bot_request_events.sql, brought to the current
 * payload by 009_bot_request_fields.sql).
 */
export const BOT_REQUEST_EVENTS_TABLE = 'bot_request_events';
