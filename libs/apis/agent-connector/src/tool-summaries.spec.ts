import { drainPhrase, nextPageOf, querySummary, seriesDigest, withoutRowIds } from './tool-summaries';

describe('tool result summaries', () => {
  const meta = { explorerKey: 'events', mode: 'unique_pages', page: 1, totalPages: 3, total: 7, sort: 'requests', sortDir: 'desc', window: { start: 'S', end: 'E' } };

  it('says how to get the next page, and stops on the last', () => {
    expect(nextPageOf(meta)).toBe(2);
    expect(querySummary(3, meta, 2)).toBe('3 row(s) of 7 (events/unique_pages, window S to E; page 1 of 3, sorted by requests desc). More: call query_explorer again with the same arguments and page=2.');
    expect(nextPageOf({ ...meta, page: 3 })).toBeNull();
    expect(querySummary(1, { ...meta, page: 3 }, null)).toMatch(/This is the last page\.$/);
  });

  it('says there is nothing, not "page 1 of 0", when no row matches', () => {
    expect(nextPageOf({ ...meta, total: 0, totalPages: 0 })).toBeNull();
    expect(querySummary(0, { ...meta, total: 0, totalPages: 0 }, null)).toBe('No rows match (events/unique_pages, window S to E).');
  });

  it('names the comparison window and category', () => {
    expect(querySummary(1, { ...meta, mode: 'comparison', compCategory: 'lost', compWindow: { start: 'CS', end: 'CE' } }, 2)).toContain('events/comparison, window S to E, lost pages against CS to CE;');
  });

  it("drops the dashboard's row key, keeps the columns and companions", () => {
    expect(withoutRowIds([{ page: 'u', _title: 't', _rowId: 'u' }])).toEqual([{ page: 'u', _title: 't' }]);
  });

  it('digests a time series: first, last, lowest, highest per series', () => {
    const series = [
      { key: 'Googlebot', points: [{ t: 'a', v: 10 }, { t: 'b', v: 40 }, { t: 'c', v: 2 }] },
      { key: 'Bingbot', points: [] },
    ];
    expect(seriesDigest(series)).toBe('Googlebot: 10 → 2 (min 2, max 40); Bingbot: no data');
  });

  it('words a drain estimate: nothing waiting, an estimate, or none yet', () => {
    expect(drainPhrase({ seconds: 0, completedPerMinute: 0.4 })).toBe('nothing waiting');
    expect(drainPhrase({ seconds: 1029, completedPerMinute: 0.7 })).toBe('about 1029 s at 0.7/min');
    expect(drainPhrase({ seconds: null, completedPerMinute: 0 })).toBe('no estimate yet (nothing completed in the last 10 minutes)');
  });
});
