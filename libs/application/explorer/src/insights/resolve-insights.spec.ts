import { AppError } from '@bpc/domain';
import { InsightsTimeseriesBody, resolveInsightsBotCategories, resolveInsightsSummary, resolveInsightsTimeseries } from './resolve-insights';

const NOW = Date.UTC(2026, 10, 20, 15, 30);

function refusal(body: InsightsTimeseriesBody): { field?: string; message: string } {
  try {
    resolveInsightsTimeseries(body, NOW);
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_FAILED') return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

describe('resolveInsightsSummary', () => {
  it('defaults to 30d against the equal-length window just before', () => {
    const { main, comparison, filters } = resolveInsightsSummary({}, NOW);
    expect(main).toEqual({ period: '30d', window: { start: new Date(NOW - 30 * 86_400_000), end: new Date(NOW) } });
    expect(comparison.window).toEqual({ start: new Date(NOW - 60 * 86_400_000), end: new Date(NOW - 30 * 86_400_000) });
    expect(comparison.period).toBe('2026-09-21T15:30:00.000Z,2026-10-21T15:30:00.000Z');
    expect(filters).toEqual([]);
  });

  it("resolves filters by the events explorer's rules (default operator, typed values)", () => {
    const { filters } = resolveInsightsSummary({ filters: [{ field: 'url', val: '/blog' }, { field: 'status_code', op: 'between', val: 400, val2: 499 }] }, NOW);
    expect(filters).toEqual([{ field: 'url', op: 'contains', val: '/blog' }, { field: 'status_code', op: 'between', val: 400, val2: 499 }]);
  });
});

describe('resolveInsightsTimeseries', () => {
  it('charts by the hour up to 7 days and by the day above, unless asked', () => {
    expect(resolveInsightsTimeseries({ metric: 'requests', period: '24h' }, NOW).interval).toBe('hour');
    expect(resolveInsightsTimeseries({ metric: 'requests', period: '7d' }, NOW).interval).toBe('hour');
    expect(resolveInsightsTimeseries({ metric: 'requests', period: '14d' }, NOW).interval).toBe('day');
    expect(resolveInsightsTimeseries({ metric: 'requests', period: '30d', interval: 'hour' }, NOW).interval).toBe('hour');
    expect(resolveInsightsTimeseries({ metric: 'hit_rate', period: '7d', interval: 'day' }, NOW).interval).toBe('day');
  });

  it('has a comparison window only when compPeriod is sent', () => {
    expect(resolveInsightsTimeseries({ metric: 'requests' }, NOW).comparison).toBeUndefined();
    expect(resolveInsightsTimeseries({ metric: 'requests', compPeriod: '30d' }, NOW).comparison).toEqual({
      period: '30d',
      window: { start: new Date(Date.UTC(2026, 9, 21)), end: new Date(Date.UTC(2026, 10, 20)) },
    });
    expect(resolveInsightsTimeseries({ metric: 'clicks', compPeriod: '2026-10-01,2026-10-07' }, NOW).comparison?.window).toEqual({ start: new Date(Date.UTC(2026, 9, 1)), end: new Date(Date.UTC(2026, 9, 8)) });
  });

  it('reads search metrics as whole days by the search-pages rules, daily', () => {
    const resolved = resolveInsightsTimeseries({ metric: 'ctr', period: '7d', filters: [{ field: 'url', op: 'contains', val: '/docs' }] }, NOW);
    expect(resolved).toMatchObject({ metric: 'ctr', interval: 'day', main: { period: '7d', window: { start: new Date(Date.UTC(2026, 10, 13)), end: new Date(Date.UTC(2026, 10, 20)) } } });
  });

  it.each<[InsightsTimeseriesBody, string, RegExp]>([
    [{}, 'metric', /^metric is required/],
    [{ metric: 'visits' }, 'metric', /^metric must be one of requests, pages, hit_rate/],
    [{ metric: 'requests', interval: 'week' }, 'interval', /^interval must be one of hour, day$/],
    [{ metric: 'requests', period: '31d', interval: 'hour' }, 'period', /period must be one of/],
    [{ metric: 'requests', period: '90d', interval: 'hour' }, 'interval', /at most 31 days/],
    [{ metric: 'requests', period: '7d', compPeriod: '90d', interval: 'hour' }, 'interval', /at most 31 days.*compPeriod/],
    [{ metric: 'requests', splitBy: 'country' }, 'splitBy', /^splitBy must be one of bot_family, cache_status, status_class, dimension, bot_category, bot_operator, verified, robots_allowed, format$/],
    [{ metric: 'requests', period: '1d' }, 'period', /must be one of 24h, 7d/],
    [{ metric: 'requests', compPeriod: '24h' }, 'compPeriod', /whole days/],
    [{ metric: 'requests', filters: [{ field: 'keyword', val: 'x' }] }, 'filters[0].field', /unknown filter field keyword/],
    [{ metric: 'requests', filters: [{ field: 'cache_status', op: 'eq', val: 'fresh' }] }, 'filters[0].val', /cache_status must be one of hit, miss, stale, bypass/],
    [{ metric: 'requests', filters: [{ field: 'url', op: 'contains', val: 'a' }, { field: 'serve_time', op: 'contains', val: 'a' }] }, 'filters[1].op', /operator must be one of eq, ne/],
    [{ metric: 'clicks', period: '24h' }, 'period', /24h is a sub-day preset; this explorer's data is whole-day/],
    [{ metric: 'clicks', interval: 'hour' }, 'interval', /whole day: interval must be day/],
    [{ metric: 'impressions', splitBy: 'bot_family' }, 'splitBy', /has no splitBy/],
    [{ metric: 'position', filters: [{ field: 'bot_name', val: 'Googlebot' }] }, 'filters[0].field', /unknown filter field bot_name .*filters: url/],
    [{ metric: 'clicks', compPeriod: '24h' }, 'compPeriod', /sub-day preset/],
  ])('refuses %j naming %s', (body, field, message) => {
    expect(refusal(body)).toEqual({ field, message: expect.stringMatching(message) });
  });
});

describe('resolveInsightsBotCategories', () => {
  const NOW_MS = Date.UTC(2026, 10, 20, 15, 30);
  const fieldOf = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error instanceof AppError ? error.field : undefined;
    }
    throw new Error('accepted');
  };

  it('takes one window (default 30d) and the events filters, the new bot fields included', () => {
    const resolved = resolveInsightsBotCategories({ filters: [{ field: 'bot_category', val: 'ai_assistant' }, { field: 'format', val: 'markdown' }] }, NOW_MS);
    expect(resolved.main.period).toBe('30d');
    expect(resolved.filters).toEqual([
      { field: 'bot_category', op: 'eq', val: 'ai_assistant' },
      { field: 'format', op: 'eq', val: 'markdown' },
    ]);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ period: 'yesterday' }, 'period'],
    [{ filters: [{ field: 'bot_category', val: 'ai' }] }, 'filters[0].val'],
    [{ filters: [{ field: 'robots_allowed', op: 'regex', val: 'n' }] }, 'filters[0].op'],
    [{ filters: [{ field: 'country', val: 'fr' }] }, 'filters[0].field'],
  ])('refuses %j naming %s', (body, field) => {
    expect(fieldOf(() => resolveInsightsBotCategories(body, NOW_MS))).toBe(field);
  });
});
