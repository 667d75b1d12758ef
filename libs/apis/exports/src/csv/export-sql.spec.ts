import { DEFAULT_LIMITS, findExplorer, resolveQuery } from '@bpc/explorer';
import { buildExportSql, EXPORT_RESOURCE_SETTINGS, exportResourceSettings } from './export-sql';

describe('buildExportSql', () => {
  const query = { ...resolveQuery(findExplorer('events')!, { period: '30d' }, Date.UTC(2026, 10, 21), DEFAULT_LIMITS), perPage: 1000, page: 1 };
  const settingsOf = (sql: string) => sql.slice(sql.lastIndexOf(' SETTINGS ') + 10);

  it('bounds the working memory of the SELECT with chDB, after the CSV settings', () => {
    const { sql, params } = buildExportSql(query, 'w1', exportResourceSettings(true));
    expect(settingsOf(sql)).toBe(
      "output_format_csv_crlf_end_of_line = 1, format_csv_null_representation = '', max_threads = 2, max_block_size = 8192, " +
        'max_bytes_before_external_sort = 33554432, max_bytes_ratio_before_external_sort = 0, temporary_files_buffer_size = 131072, max_execution_time = 300',
    );
    expect(params).toMatchObject({ website: 'w1', limit: 1000 });
  });

  it('leaves a ClickHouse server to bound its own memory, and bounds the time on both', () => {
    expect(exportResourceSettings(false)).toEqual({ max_execution_time: 300 });
    expect(exportResourceSettings(true)).toBe(EXPORT_RESOURCE_SETTINGS);
    expect(settingsOf(buildExportSql(query, 'w1', exportResourceSettings(false)).sql)).toBe("output_format_csv_crlf_end_of_line = 1, format_csv_null_representation = '', max_execution_time = 300");
  });
});
