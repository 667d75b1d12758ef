import { ApiError } from '../api/api-error';
import type { ExportRecord } from '../api/types';

export interface FoundExport {
  website: string;
  record: ExportRecord;
}

/**
 * The export of this id among the user's websites, the current one first.
 * A 409 EXPORT_SLOT_BUSY names the holder by id only, and its status is read
 * per website: an export the user started on another website of the same
 * account is found there. undefined: none of the user's own (another user of
 * the account holds the slot, and its status is theirs).
 */
export async function findExport(exportId: number, websites: readonly string[], status: (website: string, exportId: number) => Promise<ExportRecord>): Promise<FoundExport | undefined> {
  for (const website of websites) {
    try {
      return { website, record: await status(website, exportId) };
    } catch (error) {
      // Not on this website (or no explorer role there): look on the next one.
      if (error instanceof ApiError && (error.code === 'EXPORT_NOT_FOUND' || error.status === 403 || error.status === 404)) continue;
      throw error;
    }
  }
  return undefined;
}

/** The current website first, then the user's other websites with the platform module (where exports run). */
export function holderSearchOrder(current: string, websites: readonly { id: string; platformModule: boolean }[]): string[] {
  return [current, ...websites.filter((w) => w.platformModule && w.id !== current).map((w) => w.id)];
}
