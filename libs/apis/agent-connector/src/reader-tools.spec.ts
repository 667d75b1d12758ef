import type { ApiRequest, PublicApiClient } from './api-client';
import { getBotCategories } from './reader-tools';

describe('get_bot_categories', () => {
  const answer = {
    data: {
      requests: 4000,
      categories: [
        { category: 'search', requests: 2760, share: 0.69, pages: 900 },
        { category: 'ai_assistant', requests: 1240, share: 0.31, pages: 120 },
      ],
      aiAgents: { requests: 1240, share: 0.31, pages: 120 },
      topAiPages: [
        { category: 'ai_assistant', url: 'https://www.example.com/pricing', requests: 212 },
        { category: 'ai_assistant', url: 'https://www.example.com/docs', requests: 80 },
      ],
    },
    meta: { period: '7d', window: { start: '2026-11-20T00:00:00.000Z', end: '2026-11-27T00:00:00.000Z' } },
  };
  const recording = (reply: { status: number; body: unknown }) => {
    const calls: ApiRequest[] = [];
    const api: PublicApiClient = async (request) => (calls.push(request), reply);
    return { api, calls };
  };

  it('sends the period and filters as the body and answers in one line a model can quote, with the API answer as structured content', async () => {
    const { api, calls } = recording({ status: 200, body: answer });
    const filters = [{ field: 'verified', op: 'eq', val: 'yes' }];
    const result = await getBotCategories.run(api, { website: 'demo', period: '7d', filters });
    expect(calls).toEqual([{ method: 'POST', path: '/api/websites/demo/insights/bot-categories', body: { period: '7d', filters } }]);
    expect(result.structuredContent).toEqual(answer);
    expect(result.content[0].text.split('\n')[0]).toBe(
      'Period 7d: 4000 bot requests; AI agents 1240 requests on 120 pages (31 %). By category: search 2760 (69 %), ai_assistant 1240 (31 %). Most read by AI agents: ai_assistant read https://www.example.com/pricing 212 times.',
    );
  });

  it('refuses a missing website before any call, and passes an API refusal on with its field', async () => {
    const { api, calls } = recording({ status: 400, body: { code: 'VALIDATION_FAILED', message: 'bot_category must be one of search, …', field: 'filters[0].val' } });
    expect((await getBotCategories.run(api, {})).content[0].text).toContain('(field: website)');
    expect(calls).toEqual([]);
    const refused = await getBotCategories.run(api, { website: 'demo', filters: [{ field: 'bot_category', val: 'robots' }] });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/^Refused: HTTP 400 VALIDATION_FAILED: .* \(field: filters\[0\]\.val\)/);
  });
});
