import { AppError } from '@bpc/domain';
import { parseCsv, parseSearchAnalyticsRows, parseSearchConsoleCsv } from './search-console-parse';

const fieldOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    if (error instanceof AppError) return error.field;
    throw error;
  }
  return undefined;
};

describe('Search Console import parsing', () => {
  it('reads RFC 4180 CSV with quotes, commas and CRLF', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, ""y""",2\n\n')).toEqual([['a', 'b'], ['x, "y"', '2']]);
  });

  it('reads CR line ends and rows of other lengths, skips blank rows, and refuses a quoted cell left open', () => {
    expect(parseCsv('a,b\rc\r\n,,\nd,e,f')).toEqual([['a', 'b'], ['c'], ['d', 'e', 'f']]);
    expect(parseCsv('a,b"c')).toEqual([['a', 'b"c']]);
    const unclosed = 'Top pages,Clicks,Impressions,CTR,Position\n"https://www.example.com/a,1,2,50%,3\nhttps://www.example.com/b,1,2,50%,3\n';
    expect(fieldOf(() => parseSearchConsoleCsv(unclosed, 'pages_csv', '2026-11-01'))).toBe('content');
  });

  it('reads the Pages and Queries table exports for the day given', () => {
    const csv = 'Top pages,Clicks,Impressions,CTR,Position\nhttps://www.example.com/,12,340,3.53%,4.2\n"https://www.example.com/a,b",0,"1,200",0%,11\n';
    expect(parseSearchConsoleCsv(csv, 'pages_csv', '2026-11-01')).toEqual([
      { date: '2026-11-01', grain: 'page', rows: [{ key: 'https://www.example.com/', clicks: 12, impressions: 340, position: 4.2 }, { key: 'https://www.example.com/a,b', clicks: 0, impressions: 1200, position: 11 }] },
    ]);
    expect(parseSearchConsoleCsv('Top queries,Clicks,Impressions,CTR,Position\nseo,1,2,50%,3', 'queries_csv', '2026-11-01')[0].grain).toBe('query');
    expect(fieldOf(() => parseSearchConsoleCsv(csv, 'pages_csv', undefined))).toBe('date');
    expect(fieldOf(() => parseSearchConsoleCsv(csv, 'pages_csv', '2026-02-30'))).toBe('date');
    expect(fieldOf(() => parseSearchConsoleCsv('Page,Clicks\nx,1', 'pages_csv', '2026-11-01'))).toBe('content');
    expect(fieldOf(() => parseSearchConsoleCsv('Top pages,Clicks,Impressions,CTR,Position\nx,-1,2,0%,1', 'pages_csv', '2026-11-01'))).toBe('content (line 2)');
  });

  it('refuses a Pages table sent as queries and a Queries table sent as pages, naming format (the rows would be stored under the wrong grain)', () => {
    const pages = 'Top pages,Clicks,Impressions,CTR,Position\nhttps://www.example.com/,1,2,50%,3';
    const queries = 'Top queries,Clicks,Impressions,CTR,Position\nseo,1,2,50%,3';
    expect(fieldOf(() => parseSearchConsoleCsv(pages, 'queries_csv', '2026-11-01'))).toBe('format');
    expect(fieldOf(() => parseSearchConsoleCsv(queries, 'pages_csv', '2026-11-01'))).toBe('format');
    expect(() => parseSearchConsoleCsv(pages, 'queries_csv', '2026-11-01')).toThrow('the CSV is a Search Console Top pages table: import it as pages_csv');
  });

  it('refuses a key listed twice, naming both lines (it would collapse into one row)', () => {
    const csv = 'Top pages,Clicks,Impressions,CTR,Position\nhttps://a.example/x,1,2,50%,3\nhttps://a.example/y,1,2,50%,3\n https://a.example/x ,4,5,80%,1';
    expect(() => parseSearchConsoleCsv(csv, 'pages_csv', '2026-11-01')).toThrow('https://a.example/x is listed twice (lines 2 and 4)');
  });

  it('reads searchanalytics.query rows, per day and grain, weighting positions by impressions', () => {
    const days = parseSearchAnalyticsRows(
      [
        { keys: ['2026-11-01', 'https://e.com/a', 'seo'], clicks: 1, impressions: 10, ctr: 0.1, position: 2 },
        { keys: ['2026-11-01', 'https://e.com/a', 'render'], clicks: 3, impressions: 30, ctr: 0.1, position: 6 },
        { keys: ['2026-11-02', 'https://e.com/b', 'seo'], clicks: 0, impressions: 5, ctr: 0, position: 1 },
      ],
      ['date', 'page', 'query'],
    );
    expect(days).toEqual([
      { date: '2026-11-01', grain: 'page', rows: [{ key: 'https://e.com/a', clicks: 4, impressions: 40, position: 5 }] },
      { date: '2026-11-01', grain: 'query', rows: [{ key: 'seo', clicks: 1, impressions: 10, position: 2 }, { key: 'render', clicks: 3, impressions: 30, position: 6 }] },
      { date: '2026-11-02', grain: 'page', rows: [{ key: 'https://e.com/b', clicks: 0, impressions: 5, position: 1 }] },
      { date: '2026-11-02', grain: 'query', rows: [{ key: 'seo', clicks: 0, impressions: 5, position: 1 }] },
    ]);
    expect(fieldOf(() => parseSearchAnalyticsRows([{ keys: ['x'] }], ['date', 'page']))).toBe('rows[0].keys');
    expect(fieldOf(() => parseSearchAnalyticsRows([], ['page']))).toBe('dimensions');
    expect(fieldOf(() => parseSearchAnalyticsRows([{ keys: ['2026-11-01', 'p'], clicks: 1.5, impressions: 1, position: 1 }], ['date', 'page']))).toBe('rows[0].clicks');
  });
});
