import { describe, expect, it } from 'vitest';
import { ApiError } from '../api/api-error';
import type { ExportRecord } from '../api/types';
import { findExport, holderSearchOrder } from './find-export';

const running = { exportId: 7, status: 'running' } as unknown as ExportRecord;
const notFound = new ApiError(404, 'EXPORT_NOT_FOUND', 'no export 7 of yours on website demo');

describe('finding the export that holds the slot', () => {
  it('reads the current website first, then the others, and says where it found it', async () => {
    const asked: string[] = [];
    const found = await findExport(7, ['demo', 'bulk', 'shop'], async (website) => {
      asked.push(website);
      if (website === 'bulk') return running;
      throw notFound;
    });
    expect(found).toEqual({ website: 'bulk', record: running });
    expect(asked).toEqual(['demo', 'bulk']);
  });

  it('is undefined when no website of the user has it (another user of the account holds the slot)', async () => {
    await expect(findExport(7, ['demo', 'bulk'], async () => Promise.reject(notFound))).resolves.toBeUndefined();
  });

  it('stops at a failure that is not "not yours here" (the API down)', async () => {
    const down = new ApiError(0, 'UNREACHABLE', 'down');
    await expect(findExport(7, ['demo', 'bulk'], async () => Promise.reject(down))).rejects.toBe(down);
  });

  it('orders the current website first and leaves out websites without the platform module', () => {
    expect(
      holderSearchOrder('demo', [
        { id: 'bulk', platformModule: true },
        { id: 'demo', platformModule: true },
        { id: 'off', platformModule: false },
      ]),
    ).toEqual(['demo', 'bulk']);
  });
});
