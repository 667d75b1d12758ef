import type { EncodedEvent } from './encoded-event';
import { encodeBotRequests } from './explorer/bot-request-json';
import { BOT_REQUEST_RECORDED } from './explorer/bot-request-recorded.event';
import { botRequestEnvelope } from './explorer/bot-request-tuple';

/**
 * Events that cross threads as tuples, with the function that rebuilds each
 * envelope (the reference) and, below, the batch encoder a log appends them
 * with: a thread receiving tuples names the type, not a function.
 */
export const TUPLE_EVENT_DECODERS = { [BOT_REQUEST_RECORDED]: botRequestEnvelope } as const;
export type TupleEventType = keyof typeof TUPLE_EVENT_DECODERS;
export type EventTuple<T extends TupleEventType> = Parameters<(typeof TUPLE_EVENT_DECODERS)[T]>[0];

/** Per type, the batch encoder of its tuples: the same bytes as `encodeEnvelope` of each decoded envelope. */
export const TUPLE_EVENT_ENCODERS: { readonly [T in TupleEventType]: (tuples: readonly EventTuple<T>[]) => EncodedEvent[] } = { [BOT_REQUEST_RECORDED]: encodeBotRequests };
