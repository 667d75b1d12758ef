import type { ExportState } from '../domain/export-record';
import { isLeftoverObject, isLeftoverStagingFile } from './export-leftovers';

const HOUR = 3_600_000;
const now = 10 * HOUR;
const record = (exportId: number, status: ExportState['status']) => ({ exportId, status }) as ExportState;
const records = new Map([record(1, 'running'), record(2, 'completed'), record(3, 'failed')].map((r) => [r.exportId, r]));
const recordOf = (exportId: number) => records.get(exportId);
const object = (key: string, ageMs = 0) => ({ key, bytes: 1, modifiedAt: now - ageMs });

describe('isLeftoverObject', () => {
  describe.each([
    ['standalone', false],
    ['following the log', true],
  ])('%s', (_, follows) => {
    const context = { follows, now, graceMs: HOUR };
    it("keeps a running export's file and a completed one's (the retention sweep's), removes a failed one's", () => {
      expect(isLeftoverObject(object('exports/1.csv'), recordOf, context)).toBe(false);
      expect(isLeftoverObject(object('exports/2.csv', 48 * HOUR), recordOf, context)).toBe(false);
      expect(isLeftoverObject(object('exports/3.csv'), recordOf, context)).toBe(true);
    });

    it('removes an old file of no known export, and any old other object under exports/', () => {
      expect(isLeftoverObject(object('exports/9.csv', 2 * HOUR), recordOf, context)).toBe(true);
      expect(isLeftoverObject(object('exports/1.csv.part', 2 * HOUR), recordOf, context)).toBe(true);
    });
  });

  it('standalone, removes a young file of no known export (nothing else writes there); following the log, leaves it to its grace', () => {
    expect(isLeftoverObject(object('exports/9.csv', 1000), recordOf, { follows: false, now, graceMs: HOUR })).toBe(true);
    expect(isLeftoverObject(object('exports/9.csv', 1000), recordOf, { follows: true, now, graceMs: HOUR })).toBe(false);
  });
});

describe('isLeftoverStagingFile', () => {
  it('standalone, every staging file found while recovering is a leftover', () => {
    for (const r of [undefined, ...records.values()]) expect(isLeftoverStagingFile(r, now, { follows: false, now, graceMs: HOUR })).toBe(true);
  });

  it("following the log, keeps a running export's file and a young one of an unknown export; removes the rest", () => {
    const context = { follows: true, now, graceMs: HOUR };
    expect(isLeftoverStagingFile(recordOf(1), now - 2 * HOUR, context)).toBe(false);
    expect(isLeftoverStagingFile(undefined, now - 1000, context)).toBe(false);
    expect(isLeftoverStagingFile(undefined, now - 2 * HOUR, context)).toBe(true);
    expect(isLeftoverStagingFile(recordOf(2), now, context)).toBe(true);
    expect(isLeftoverStagingFile(recordOf(3), now, context)).toBe(true);
  });
});
