import { DEFAULT_LIMITS, findExplorer } from '../catalog/explorer-catalog';
import { resolveQuery } from '../resolve-query/resolve-query';
import { buildExplorerSql } from './explorer-sql';

const now = Date.parse('2026-11-21T12:00:00.000Z');

describe('explorer SQL', () => {
  it('binds every user value and the website; the SQL text carries none of them', () => {
    const hostile = "x' OR 1=1; DROP TABLE bot_requests --";
    const query = resolveQuery(
      findExplorer('events')!,
      { filters: [{ field: 'url', op: 'regex', val: hostile.replace(/[()]/g, '') }, { field: 'bot_name', op: 'equals', val: hostile }, { field: 'serve_time', op: 'between', val: 1, val2: 2 }] },
      now,
      DEFAULT_LIMITS,
    );
    const sql = buildExplorerSql(query, "demo'--");
    for (const text of [sql.countSql, sql.pageSql]) {
      expect(text).not.toContain('OR 1=1');
      expect(text).not.toContain("demo'");
      expect(text).toContain('website = {website:String}');
    }
    expect(sql.params).toMatchObject({ website: "demo'--", f1: hostile, f2: 1, f2_2: 2, limit: 100, offset: 0 });
  });

  it('reads the search tables through the latest import of each day', () => {
    const query = resolveQuery(findExplorer('search-keywords')!, { filters: [{ field: 'keyword', val: 'seo' }] }, now, DEFAULT_LIMITS);
    const sql = buildExplorerSql(query, 'demo');
    expect(sql.pageSql).toContain('FROM search_query_daily FINAL');
    expect(sql.pageSql).toContain('search_day_imports');
    expect(sql.params).toMatchObject({ startDate: '2026-10-24', endDate: '2026-11-21', f0: 'seo' });
  });
});
