import { AppError } from '@bpc/domain';
import { DEFAULT_LIMITS } from '../catalog/explorer-catalog';
import { resolveQuery } from '../resolve-query/resolve-query';
import { COLUMN_SQL, RENDER_FILTER_SQL } from '../sql/explorer-sql';
import { buildQuerySql } from '../sql/query-sql';
import { outcomeClassOf, RENDER_OUTCOMES, rendersCatalog, rendersCatalogOf } from './renders-catalog';

const NOW = Date.UTC(2026, 10, 27, 12);
const catalog = rendersCatalog(7, [{ id: 1, name: 'desktop' }, { id: 3, name: 'mobile' }]);

describe('render history catalog', () => {
  it('has SQL for every column and filter, and every default is a sortable column of its mode', () => {
    for (const mode of catalog.modes) {
      const keys = catalog.columns.filter((c) => c.modes.includes(mode.key)).map((c) => c.key);
      for (const key of keys) expect({ mode: mode.key, key, sql: typeof COLUMN_SQL[mode.key][key] }).toEqual({ mode: mode.key, key, sql: 'string' });
      for (const column of mode.defaults.columns) expect(keys).toContain(column);
      expect(keys).toContain(mode.defaults.sort);
      expect(catalog.periods.presets).toContain(mode.defaults.period);
    }
    for (const filter of catalog.filters) expect({ field: filter.field, sql: typeof RENDER_FILTER_SQL[filter.field] }).toEqual({ field: filter.field, sql: 'string' });
  });

  it('classes every outcome as the dashboard and the filters do', () => {
    expect(Object.fromEntries(RENDER_OUTCOMES.map((o) => [o, outcomeClassOf(o)]))).toEqual({
      stored: 'stored',
      kept_blank: 'kept',
      kept_timeout: 'kept',
      kept_soft_404: 'kept',
      kept_smaller: 'kept',
      kept_fresher: 'kept',
      retry_scheduled: 'failed',
      gave_up: 'failed',
      failed: 'failed',
    });
  });

  it("reads its host's rows only, with every user value bound (never in the SQL text)", () => {
    const hostile = "x' OR 1=1 --";
    const query = resolveQuery(catalog, { filters: [{ field: 'url', op: 'contains', val: hostile }, { field: 'reason', op: 'regex', val: hostile }, { field: 'dimension', val: 'mobile' }] }, NOW, DEFAULT_LIMITS);
    const sql = buildQuerySql(query, "demo'--");
    for (const text of [sql.countSql, sql.pageSql]) {
      expect(text).toContain('FROM render_outcomes FINAL WHERE host_id = {hostId:UInt32}');
      expect(text).not.toContain(hostile);
      expect(text).not.toContain('demo');
    }
    expect(sql.params).toMatchObject({ hostId: 7, f0: hostile, f1: hostile, f2: 'mobile', dimIds: [1, 3], dimNames: ['desktop', 'mobile'], limit: 100, offset: 0 });
  });

  it("takes a website's host and dimensions from the configuration", () => {
    const config = { websites: [{ id: 'shop', host_id: 2 }], hosts: [{ host_id: 2, dimensions: [{ id: 5, name: 'desktop' }] }] } as unknown as Parameters<typeof rendersCatalogOf>[0];
    expect(rendersCatalogOf(config, 'shop')).toMatchObject({ key: 'renders', hostId: 2, dimensions: [{ id: 5, name: 'desktop' }] });
    expect(() => rendersCatalogOf(config, 'nope')).toThrow(AppError);
  });
});
