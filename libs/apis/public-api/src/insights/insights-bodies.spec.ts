import { AppError } from '@bpc/domain';
import { validateBody } from '@bpc/platform';
import { InsightsAiCrawlersDto, InsightsBotCategoriesDto, InsightsSummaryDto, InsightsTimeseriesDto } from './insights-body.dto';

/** The refusal of `body`, as the public API answers it: field and message. */
function refusal(dto: new () => object, body: Record<string, unknown>): { field?: string; message: string } {
  try {
    validateBody(dto, body, { forbidUnknownKeys: true });
  } catch (error) {
    if (error instanceof AppError && error.code === 'VALIDATION_FAILED') return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(body)}`);
}

describe('insights bodies', () => {
  it.each<[string, new () => object, Record<string, unknown>, string]>([
    ['summary', InsightsSummaryDto, { period: '7d', page: 2 }, 'page'],
    ['summary', InsightsSummaryDto, { metric: 'requests' }, 'metric'],
    ['timeseries', InsightsTimeseriesDto, { metric: 'requests', mode: 'requests' }, 'mode'],
    ['bot-categories', InsightsBotCategoriesDto, { period: '7d', compPeriod: '7d' }, 'compPeriod'],
    ['bot-categories', InsightsBotCategoriesDto, { splitBy: 'bot_category' }, 'splitBy'],
    ['ai-crawlers', InsightsAiCrawlersDto, { period: '7d', compPeriod: '7d' }, 'compPeriod'],
  ])('the %s body refuses a key it does not know (%j), naming it', (_name, dto, body, field) => {
    expect(refusal(dto, body).field).toBe(field);
  });

  it.each<[Record<string, unknown>, string, RegExp]>([
    [{}, 'metric', /^metric is required$/],
    [{ metric: 7 }, 'metric', /^metric must be a string$/],
    [{ metric: 'requests', interval: 1 }, 'interval', /^interval must be a string$/],
    [{ metric: 'requests', splitBy: null }, 'splitBy', /splitBy/],
    [{ metric: 'requests', period: 30 }, 'period', /^period must be a string$/],
    [{ metric: 'requests', compPeriod: null }, 'compPeriod', /compPeriod/],
    [{ metric: 'requests', filters: [{ field: 'url', op: null, val: 'a' }] }, 'filters[0].op', /op/],
    [{ metric: 'requests', filters: 'url' }, 'filters', /^filters must be an array/],
  ])('the timeseries body refuses %j naming %s', (body, field, message) => {
    expect(refusal(InsightsTimeseriesDto, body)).toEqual({ field, message: expect.stringMatching(message) });
  });

  it.each<[Record<string, unknown>, string]>([
    [{ period: 7 }, 'period'],
    [{ filters: {} }, 'filters'],
    [{ filters: [{ field: 'bot_category', op: 5, val: 'x' }] }, 'filters[0].op'],
  ])('the bot-categories body refuses %j naming %s', (body, field) => {
    expect(refusal(InsightsBotCategoriesDto, body).field).toBe(field);
  });

  it.each<[Record<string, unknown>, string]>([
    [{ hostname: 7 }, 'hostname'],
    [{ hostname: 'x'.repeat(254) }, 'hostname'],
    [{ period: ['7d'] }, 'period'],
    [{ filters: [{ field: 'robots_allowed', op: [], val: 'no' }] }, 'filters[0].op'],
  ])('the ai-crawlers body refuses %j naming %s', (body, field) => {
    expect(refusal(InsightsAiCrawlersDto, body).field).toBe(field);
  });

  it('takes every documented field', () => {
    expect(() => validateBody(InsightsAiCrawlersDto, { period: '7d', hostname: 'www.example.com', filters: [{ field: 'bot_category', op: 'eq', val: 'ai_training' }] }, { forbidUnknownKeys: true })).not.toThrow();
    expect(() => validateBody(InsightsTimeseriesDto, { metric: 'requests', period: '7d', compPeriod: '7d', interval: 'day', splitBy: 'bot_family', filters: [{ field: 'url', op: 'contains', val: 'a' }] }, { forbidUnknownKeys: true })).not.toThrow();
    expect(() => validateBody(InsightsSummaryDto, { period: '7d', compPeriod: '7d', filters: [] }, { forbidUnknownKeys: true })).not.toThrow();
    expect(() => validateBody(InsightsBotCategoriesDto, { period: '7d', filters: [{ field: 'bot_category', op: 'eq', val: 'ai_assistant' }] }, { forbidUnknownKeys: true })).not.toThrow();
  });
});
