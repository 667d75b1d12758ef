import type { ExportState } from '../domain/export-record';
import { EXPORT_LIST_LIMIT, userExports } from './user-exports';

const record = (exportId: number, userId = 'ann', websiteId = 'demo'): ExportState => ({
  exportId, fileId: `f${exportId}`, accountId: 'acme', websiteId, userId, explorerKey: 'events', questionHash: `h${exportId}`, columns: ['page'], maxRows: 10,
  filename: 'a.csv', window: { start: '2026-11-01T00:00:00.000Z', end: '2026-11-02T00:00:00.000Z' }, startedFrom: 'api', createdAt: '2026-11-21T12:00:00.000Z', status: 'running',
});

describe('userExports', () => {
  it("keeps the user's exports on the website only, newest (highest id) first", () => {
    const records = [record(3), record(1), record(4, 'bob'), record(5, 'ann', 'shop'), record(2)];
    expect(userExports(records, 'ann', 'demo').map((r) => r.exportId)).toEqual([3, 2, 1]);
    expect(userExports(records, 'bob', 'demo').map((r) => r.exportId)).toEqual([4]);
    expect(userExports(records, 'bob', 'shop')).toEqual([]);
  });

  it(`answers at most ${EXPORT_LIST_LIMIT}, the newest`, () => {
    const records = Array.from({ length: EXPORT_LIST_LIMIT + 5 }, (_, i) => record(i + 1));
    const listed = userExports(records, 'ann', 'demo');
    expect(listed).toHaveLength(EXPORT_LIST_LIMIT);
    expect(listed[0].exportId).toBe(EXPORT_LIST_LIMIT + 5);
    expect(listed.at(-1)!.exportId).toBe(6);
  });
});
