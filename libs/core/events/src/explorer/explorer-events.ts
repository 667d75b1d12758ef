import type { EventDefinition } from '../event-definition';
import { TOPICS } from '../topics';
import { BOT_REQUEST_RECORDED, BotRequestRecorded, botRequestRecordedSchema } from './bot-request-recorded.event';
import { SEARCH_PERFORMANCE_RECORDED, SearchPerformanceRecorded, searchPerformanceRecordedSchema } from './search-performance-recorded.event';

/** What the explorer projector reads: bot requests (keyed by website) and search performance (keyed by website). */
export type ExplorerEvent = BotRequestRecorded | SearchPerformanceRecorded;

export const EXPLORER_EVENT_CATALOG: Readonly<Record<ExplorerEvent['type'], EventDefinition>> = {
  [BOT_REQUEST_RECORDED]: { type: BOT_REQUEST_RECORDED, version: 1, topic: TOPICS.botRequests, key: 'website id', description: 'A bot request was served by the edge (one row of the events explorer).', payload: botRequestRecordedSchema },
  [SEARCH_PERFORMANCE_RECORDED]: { type: SEARCH_PERFORMANCE_RECORDED, version: 1, topic: TOPICS.searchPerformance, key: 'website id', description: 'One whole day of search performance for a website at one grain (page or query); a later event for the same day and grain replaces it.', payload: searchPerformanceRecordedSchema },
};

/** Narrows a record read from the bot-request or search-performance topics. */
export function asExplorerEvent(event: { type: string; version: number }): ExplorerEvent | undefined {
  const definition = (EXPLORER_EVENT_CATALOG as Record<string, EventDefinition | undefined>)[event.type];
  return definition && definition.version === event.version ? (event as ExplorerEvent) : undefined;
}
