import { SearchPerformanceRecorded, TOPICS } from '@bpc/events';
import { AppendsNoted, openStandaloneState, StandaloneState, TestClock } from '@bpc/testing';
import { ImportSearchPerformance, ImportSearchPerformanceInput } from './import-search-performance.command';
import { ImportSearchPerformanceHandler, SEARCH_ROWS_PER_EVENT } from './import-search-performance.handler';

const NOW = Date.parse('2026-11-28T02:00:00Z');
const PAGES_CSV = 'Top pages,Clicks,Impressions,CTR,Position\nhttps://www.example.com/,12,340,3.53%,4.2\nhttps://www.example.com/a,0,100,0%,11\n';

describe('ImportSearchPerformance', () => {
  let state: StandaloneState;
  let log: AppendsNoted;
  let handler: ImportSearchPerformanceHandler;

  beforeEach(async () => {
    state = await openStandaloneState();
    log = new AppendsNoted(state.log);
    handler = new ImportSearchPerformanceHandler(log, new TestClock(NOW));
  });

  afterEach(() => state.close());

  const imported = async () => (await state.recorded(TOPICS.searchPerformance)) as SearchPerformanceRecorded[];
  const run = (input: Omit<ImportSearchPerformanceInput, 'websiteId' | 'source'>) => handler.execute(new ImportSearchPerformance({ websiteId: 'demo', source: 'api', ...input }));

  it("records a CSV export as the named day's page rows, keyed by website, and says what it imported", async () => {
    const answer = await run({ format: 'pages_csv', content: PAGES_CSV, date: '2026-11-01' });

    expect(answer).toEqual({ websiteId: 'demo', days: [{ date: '2026-11-01', grain: 'page', rows: 2 }] });
    const [event] = await imported();
    expect(event).toMatchObject({ key: 'demo', occurredAt: new Date(NOW).toISOString() });
    expect(event.payload).toEqual({
      websiteId: 'demo',
      date: '2026-11-01',
      grain: 'page',
      source: 'search-console-csv',
      rows: [
        { key: 'https://www.example.com/', clicks: 12, impressions: 340, position: 4.2 },
        { key: 'https://www.example.com/a', clicks: 0, impressions: 100, position: 11 },
      ],
    });
  });

  it('records an API response as one event per day and grain, in one append (source search-console-api)', async () => {
    const rows = [
      { keys: ['2026-11-01', 'https://www.example.com/', 'seo'], clicks: 3, impressions: 30, position: 2 },
      { keys: ['2026-11-02', 'https://www.example.com/', 'seo'], clicks: 1, impressions: 10, position: 4 },
    ];
    const answer = await run({ format: 'searchanalytics_json', rows });

    expect(answer.days).toEqual([
      { date: '2026-11-01', grain: 'page', rows: 1 },
      { date: '2026-11-01', grain: 'query', rows: 1 },
      { date: '2026-11-02', grain: 'page', rows: 1 },
      { date: '2026-11-02', grain: 'query', rows: 1 },
    ]);
    expect(log.appends).toEqual([{ topic: TOPICS.searchPerformance, events: 4 }]);
    expect((await imported()).map((e) => [e.payload.date, e.payload.grain, e.payload.source])).toEqual([
      ['2026-11-01', 'page', 'search-console-api'],
      ['2026-11-01', 'query', 'search-console-api'],
      ['2026-11-02', 'page', 'search-console-api'],
      ['2026-11-02', 'query', 'search-console-api'],
    ]);
  });

  it('splits a large day into events of at most 5,000 rows that share one time: together they are one import of that day', async () => {
    const lines = Array.from({ length: SEARCH_ROWS_PER_EVENT + 1 }, (_, i) => `https://www.example.com/p${i},1,10,10%,3`);
    const answer = await run({ format: 'pages_csv', content: `Top pages,Clicks,Impressions,CTR,Position\n${lines.join('\n')}`, date: '2026-11-01' });

    expect(answer.days).toEqual([{ date: '2026-11-01', grain: 'page', rows: SEARCH_ROWS_PER_EVENT + 1 }]);
    const events = await imported();
    expect(events.map((e) => e.payload.rows.length)).toEqual([SEARCH_ROWS_PER_EVENT, 1]);
    expect(new Set(events.map((e) => e.occurredAt))).toEqual(new Set([new Date(NOW).toISOString()]));
    expect(log.appends).toHaveLength(1);
  });

  it.each([
    ['a CSV export that is not text', { format: 'queries_csv', date: '2026-11-01' }, 'content'],
    ['an API response without rows', { format: 'searchanalytics_json', rows: [] }, 'rows'],
    ['an API response whose rows are not a list', { format: 'searchanalytics_json', rows: 'x' as unknown as unknown[] }, 'rows'],
  ] as const)('refuses %s with VALIDATION_FAILED naming the field, and records nothing', async (_what, input, field) => {
    await expect(run(input)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field });
    expect(log.appends).toEqual([]);
  });

  // The CSV parser always answers one day: a header-only export must not become that day with no rows (a day's latest
  // import replaces it, so it would wipe the day's stored figures).
  it('refuses a CSV export without rows with VALIDATION_FAILED naming content, and records nothing (a day without rows would wipe that day)', async () => {
    await expect(run({ format: 'pages_csv', content: 'Top pages,Clicks,Impressions,CTR,Position\n', date: '2026-11-01' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'content' });
    expect(log.appends).toEqual([]);
  });

  it('answers LOG_UNAVAILABLE when the log refuses the append, saying to send the import again', async () => {
    await state.closeLog();
    await expect(run({ format: 'pages_csv', content: PAGES_CSV, date: '2026-11-01' })).rejects.toMatchObject({ code: 'LOG_UNAVAILABLE', message: expect.stringMatching(/send it again/) });
    expect(await imported()).toEqual([]);
  });
});
