import { BOT_REQUEST_RECORDED } from './explorer/bot-request-recorded.event';
import { botRequestEnvelope } from './explorer/bot-request-tuple';

/**
 * Events that cross threads as tuples, with the function that rebuilds each
 * envelope: a thread receiving tuples names the type, not a function.
 */
export const TUPLE_EVENT_DECODERS = { [BOT_REQUEST_RECORDED]: botRequestEnvelope } as const;
export type TupleEventType = keyof typeof TUPLE_EVENT_DECODERS;
export type EventTuple<T extends TupleEventType> = Parameters<(typeof TUPLE_EVENT_DECODERS)[T]>[0];
