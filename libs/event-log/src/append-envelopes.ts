import { EncodedEvent, encodeEnvelope, EventEnvelope } from '@bpc/events';
import type { EventLog } from './event-log.port';

/** `EventLog.append` by way of `appendEncoded`: an event that cannot be encoded rejects the call before anything is stored. */
export function appendEnvelopes(log: Pick<EventLog, 'appendEncoded'>, topic: string, events: readonly EventEnvelope[]): Promise<void> {
  let encoded: EncodedEvent[];
  try {
    encoded = events.map(encodeEnvelope);
  } catch (error) {
    return Promise.reject(error);
  }
  return log.appendEncoded(topic, encoded);
}
