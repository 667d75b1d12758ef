import type { ApiRequest, PublicApiClient } from './api-client';
import { getAiCrawlers, getBotCategories } from './reader-tools';

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

describe('get_ai_crawlers', () => {
  const agent = (name: string, robots: string, requests = 0, disallowedRequests = 0, extra: Record<string, unknown> = {}) => ({
    name, operator: 'OpenAI', category: 'ai_training', robotsTxtToken: name, fetchedAs: null, robots, namedInRobotsTxt: robots !== 'allowed', disallowedPaths: robots === 'blocked' ? ['/'] : robots === 'partly_disallowed' ? ['/docs/'] : [], requests, disallowedRequests, topDisallowedUrls: [], ...extra,
  });
  const answer = {
    data: {
      robotsTxt: { url: 'https://www.example.com/robots.txt', state: 'rules', httpStatus: 200, fetchedAt: '2026-12-07T11:00:00.000Z', reason: null, truncated: false },
      checkedPaths: ['/', '/docs/'],
      summary: { allowed: 2, partlyDisallowed: 1, blocked: 1, unknown: 0, namedInRobotsTxt: 2, agentsSeen: 2, requests: 52, disallowedRequests: 7, agentsIgnoringRobotsTxt: 1 },
      agents: [
        agent('GPTBot', 'partly_disallowed', 40, 7, { topDisallowedUrls: [{ url: 'https://www.example.com/docs/a', requests: 5 }] }),
        agent('ChatGPT-User', 'allowed', 12),
        agent('Bytespider', 'blocked'),
        agent('ClaudeBot', 'allowed'),
      ],
      spoofed: { requests: 30, share: 0.075, rendersAvoided: 6, rendersCaused: 0, topClaimedBots: [{ bot: 'Googlebot', requests: 30 }], topUrls: [] },
    },
    meta: { period: '7d', window: { start: '2026-11-30T00:00:00.000Z', end: '2026-12-07T00:00:00.000Z' }, hostname: 'www.example.com' },
  };

  it('says which AI crawlers the site allows, restricts and blocks, which ignore robots.txt, and the spoofed bots; keeps the agents worth attention', async () => {
    const calls: ApiRequest[] = [];
    const api: PublicApiClient = async (request) => (calls.push(request), { status: 200, body: answer });
    const result = await getAiCrawlers.run(api, { website: 'demo', period: '7d', hostname: 'www.example.com' });
    expect(calls).toEqual([{ method: 'POST', path: '/api/websites/demo/insights/ai-crawlers', body: { period: '7d', hostname: 'www.example.com' } }]);
    expect(result.content[0].text.split('\n')[0]).toBe(
      'Period 7d, robots.txt https://www.example.com/robots.txt read, checked on / /docs/. Of 4 known AI agents it names 2 (GPTBot partly_disallowed /docs/, Bytespider blocked); in all it allows 2, partly disallows 1, blocks 1. 2 made 52 requests. ' +
        'Ignoring robots.txt (fetched disallowed pages anyway): GPTBot 7 requests, most https://www.example.com/docs/a. Spoofed (claims proven false): 30 requests (7.5 %), claiming Googlebot 30; renders avoided 6.',
    );
    expect((result.structuredContent!.data as { agents: { name: string }[] }).agents.map((a) => a.name)).toEqual(['GPTBot', 'ChatGPT-User', 'Bytespider']);
  });

  it('passes an API refusal on with its field', async () => {
    const api: PublicApiClient = async () => ({ status: 400, body: { code: 'VALIDATION_FAILED', message: "hostname must be one of the website's hostnames", field: 'hostname' } });
    const refused = await getAiCrawlers.run(api, { website: 'demo', hostname: 'elsewhere.example' });
    expect(refused.isError).toBe(true);
    expect(refused.content[0].text).toMatch(/^Refused: HTTP 400 VALIDATION_FAILED: .* \(field: hostname\)/);
  });
});
