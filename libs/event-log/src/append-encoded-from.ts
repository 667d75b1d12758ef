import type { EncodedEvent } from '@bpc/events';
import type { EventLog } from './event-log.port';

/** Appends what `encode` returns; when encoding throws, the call rejects before anything is stored. */
export function appendEncodedFrom(log: Pick<EventLog, 'appendEncoded'>, topic: string, encode: () => EncodedEvent[]): Promise<void> {
  let encoded: EncodedEvent[];
  try {
    encoded = encode();
  } catch (error) {
    return Promise.reject(error);
  }
  return log.appendEncoded(topic, encoded);
}
