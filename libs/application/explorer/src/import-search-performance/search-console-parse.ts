import { CsvError, parse } from 'csv-parse/sync';
import { validationError } from '@bpc/domain';
import type { SearchGrain, SearchPerformanceRow } from '@bpc/events';

export const IMPORT_FORMATS = ['pages_csv', 'queries_csv', 'searchanalytics_json'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

export const MAX_IMPORT_ROWS = 200_000;

/** One whole day at one grain, ready to become a SearchPerformanceRecorded event. */
export interface SearchDay {
  readonly date: string;
  readonly grain: SearchGrain;
  readonly rows: SearchPerformanceRow[];
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isRealDate(text: string): boolean {
  if (!DATE.test(text)) return false;
  const ms = Date.parse(`${text}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === text;
}

/**
 * RFC 4180 CSV (quoted fields, doubled quotes, CRLF, LF or CR line ends), a
 * leading BOM tolerated; rows of empty cells are skipped and rows may differ in
 * length. A quote inside an unquoted cell is text; a quoted cell left open is
 * refused (it would swallow the rest of the file into one cell).
 */
export function parseCsv(text: string): string[][] {
  try {
    return parse(text, { bom: true, relax_column_count: true, relax_quotes: true, skip_records_with_empty_values: true, record_delimiter: ['\r\n', '\n', '\r'] });
  } catch (error) {
    if (error instanceof CsvError) throw validationError('content', `not valid CSV: ${error.message}`);
    throw error;
  }
}

function count(text: string, at: string): number {
  const n = Number(text.replace(/[\s,]/g, ''));
  if (!Number.isSafeInteger(n) || n < 0) throw validationError(at, `expected a whole number, got ${JSON.stringify(text)}`);
  return n;
}

function position(value: unknown, at: string): number {
  const n = typeof value === 'number' ? value : Number(String(value).replace(',', '.'));
  if (!Number.isFinite(n) || n < 0) throw validationError(at, `expected a position, got ${JSON.stringify(value)}`);
  return n;
}

/**
 * A Search Console "Pages" or "Queries" table export (CSV: first column the
 * page or query, then Clicks, Impressions, CTR, Position). The export holds no
 * date column, so the caller names the one day it covers.
 */
export function parseSearchConsoleCsv(content: string, format: 'pages_csv' | 'queries_csv', date: string | undefined): SearchDay[] {
  if (date === undefined || !isRealDate(date)) throw validationError('date', 'a CSV export covers one day: give it as date YYYY-MM-DD');
  const [header, ...lines] = parseCsv(content);
  if (!header) throw validationError('content', 'the CSV is empty');
  const names = header.map((h) => h.trim().toLowerCase());
  // Search Console names the table in its first header: a Pages export sent as queries (or the reverse) would be stored under the wrong grain.
  const other = format === 'pages_csv' ? 'top queries' : 'top pages';
  if (names[0] === other) throw validationError('format', `the CSV is a Search Console ${header[0]!.trim()} table: import it as ${format === 'pages_csv' ? 'queries_csv' : 'pages_csv'}`);
  const index = (name: string) => {
    const i = names.indexOf(name);
    if (i < 0) throw validationError('content', `the CSV header has no ${name} column (found: ${header.join(', ')})`);
    return i;
  };
  const clicks = index('clicks');
  const impressions = index('impressions');
  const pos = index('position');
  if (lines.length > MAX_IMPORT_ROWS) throw validationError('content', `at most ${MAX_IMPORT_ROWS} rows per import`);
  const seen = new Map<string, number>();
  const rows = lines.map((line, i) => {
    const at = `content (line ${i + 2})`;
    const key = (line[0] ?? '').trim();
    if (!key) throw validationError(at, 'the first column (page or query) is empty');
    // A key twice would collapse into one stored row and lose figures: refuse it, naming both lines.
    if (seen.has(key)) throw validationError(at, `${key} is listed twice (lines ${seen.get(key)} and ${i + 2})`);
    seen.set(key, i + 2);
    return { key, clicks: count(line[clicks] ?? '', at), impressions: count(line[impressions] ?? '', at), position: position(line[pos], at) };
  });
  return [{ date, grain: format === 'pages_csv' ? 'page' : 'query', rows }];
}

interface ApiRow {
  readonly keys?: unknown;
  readonly clicks?: unknown;
  readonly impressions?: unknown;
  readonly position?: unknown;
}

/**
 * Rows of a `searchanalytics.query` response. `dimensions` names what `keys`
 * holds, in order, and must include `date` and `page` and/or `query`. With
 * both `page` and `query`, each grain is summed from the finer rows (position
 * weighted by impressions), which approximates what the search engine reports
 * per grain; query with one of them for exact figures.
 */
export function parseSearchAnalyticsRows(rows: readonly unknown[], dimensions: readonly string[]): SearchDay[] {
  const dateAt = dimensions.indexOf('date');
  const pageAt = dimensions.indexOf('page');
  const queryAt = dimensions.indexOf('query');
  if (dateAt < 0 || (pageAt < 0 && queryAt < 0) || dimensions.some((d) => !['date', 'page', 'query'].includes(d)) || new Set(dimensions).size !== dimensions.length) {
    throw validationError('dimensions', 'dimensions must list date and page and/or query, in the order of each row\'s keys');
  }
  if (rows.length > MAX_IMPORT_ROWS) throw validationError('rows', `at most ${MAX_IMPORT_ROWS} rows per import`);
  const days = new Map<string, Map<string, { clicks: number; impressions: number; weighted: number }>>();
  rows.forEach((raw, i) => {
    const at = `rows[${i}]`;
    const row = raw as ApiRow;
    if (typeof row !== 'object' || row === null || !Array.isArray(row.keys) || row.keys.length !== dimensions.length || row.keys.some((k) => typeof k !== 'string')) {
      throw validationError(`${at}.keys`, `keys must hold ${dimensions.length} strings (${dimensions.join(', ')})`);
    }
    const keys = row.keys as string[];
    if (!isRealDate(keys[dateAt])) throw validationError(`${at}.keys`, `invalid date ${JSON.stringify(keys[dateAt])}`);
    const clicks = typeof row.clicks === 'number' && Number.isSafeInteger(row.clicks) && row.clicks >= 0 ? row.clicks : NaN;
    const impressions = typeof row.impressions === 'number' && Number.isSafeInteger(row.impressions) && row.impressions >= 0 ? row.impressions : NaN;
    if (Number.isNaN(clicks)) throw validationError(`${at}.clicks`, 'clicks must be a whole number');
    if (Number.isNaN(impressions)) throw validationError(`${at}.impressions`, 'impressions must be a whole number');
    const pos = position(row.position, `${at}.position`);
    for (const [grain, keyAt] of [['page', pageAt], ['query', queryAt]] as const) {
      if (keyAt < 0) continue;
      const dayKey = `${keys[dateAt]}|${grain}`;
      const perKey = days.get(dayKey) ?? new Map();
      days.set(dayKey, perKey);
      const sum = perKey.get(keys[keyAt]) ?? { clicks: 0, impressions: 0, weighted: 0 };
      perKey.set(keys[keyAt], { clicks: sum.clicks + clicks, impressions: sum.impressions + impressions, weighted: sum.weighted + pos * impressions });
    }
  });
  return [...days.entries()].map(([dayKey, perKey]) => {
    const [date, grain] = dayKey.split('|') as [string, SearchGrain];
    const out = [...perKey.entries()].map(([key, s]) => ({ key, clicks: s.clicks, impressions: s.impressions, position: s.impressions === 0 ? 0 : Math.round((s.weighted / s.impressions) * 100) / 100 }));
    return { date, grain, rows: out };
  });
}
