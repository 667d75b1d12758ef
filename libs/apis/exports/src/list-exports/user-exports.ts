import type { ExportState } from '../domain/export-record';

/**
 * How many records the list answers at most. The retention (24 h by default)
 * already keeps a user's list short; this bounds it for a user who exports
 * in a loop, so an answer (each completed record signs a link) stays small.
 */
export const EXPORT_LIST_LIMIT = 100;

/**
 * The exports `userId` started on `websiteId`, newest first, at most `limit`.
 * Newest by id: ids are claimed from one counter as exports are created, so
 * their order is the order of creation on every replica, whatever its clock.
 */
export function userExports(records: Iterable<ExportState>, userId: string, websiteId: string, limit = EXPORT_LIST_LIMIT): ExportState[] {
  const mine: ExportState[] = [];
  for (const record of records) if (record.userId === userId && record.websiteId === websiteId) mine.push(record);
  return mine.sort((a, b) => b.exportId - a.exportId).slice(0, limit);
}
