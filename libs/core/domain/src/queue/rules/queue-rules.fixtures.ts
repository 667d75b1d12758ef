import { queueEntryKey } from '../queue-entry';
import type { Priority } from '../priority';
import type { QueueChange, QueuedEntry } from './queue-changes';
import { QueueState } from './queue-state';

/** Shared by the queue rules' specs: a state built from events, read as the decisions read it. */
export const T = 1_700_000_000_000;

export function entry(url: string, over: Partial<QueuedEntry> = {}): QueuedEntry {
  const dimensionId = over.dimensionId ?? 1;
  return { hostId: 1, key: queueEntryKey(dimensionId, url), url, dimensionId, priority: 'normal' as Priority, dueAt: T, entryId: 'e1', attempt: 0, ...over };
}

export const queued = (...entries: QueuedEntry[]): QueueChange[] => [{ type: 'entries-queued', entries }];

export function given(...events: QueueChange[]): QueueState {
  const state = new QueueState();
  state.evolveAll(events);
  return state;
}

/** Claim ids c1, c2, … in the order asked. */
export function claimIds(): () => string {
  let n = 0;
  return () => `c${++n}`;
}
