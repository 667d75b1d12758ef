// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import type { AiCrawler, AiCrawlersResult } from '../api/types';
import { envelope, renderPage, serveApi } from '../test-support';
import { parseExplorerState } from '../lib/explorer-state';
import AiAgentsPage from './ai-agents';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const window = { start: '2026-11-30T00:00:00.000Z', end: '2026-12-07T00:00:00.000Z' };
const agent = (name: string, over: Partial<AiCrawler> = {}): AiCrawler => ({
  name, operator: 'OpenAI', category: 'ai_training', robotsTxtToken: name, fetchedAs: null, robots: 'allowed', namedInRobotsTxt: false, disallowedPaths: [], requests: 0, disallowedRequests: 0, topDisallowedUrls: [], ...over,
});
const DATA: AiCrawlersResult['data'] = {
  robotsTxt: { url: 'https://www.example.com/robots.txt', state: 'rules', httpStatus: 200, fetchedAt: '2026-12-07T11:00:00.000Z', reason: null, truncated: false },
  checkedPaths: ['/', '/docs/', '/pricing'],
  summary: { allowed: 1, partlyDisallowed: 1, blocked: 1, unknown: 0, namedInRobotsTxt: 2, agentsSeen: 2, requests: 52, disallowedRequests: 7, agentsIgnoringRobotsTxt: 1 },
  agents: [
    agent('GPTBot', { robots: 'partly_disallowed', namedInRobotsTxt: true, disallowedPaths: ['/docs/'], requests: 40, disallowedRequests: 7, topDisallowedUrls: [{ url: 'https://www.example.com/docs/a?x=1', requests: 5 }] }),
    agent('ChatGPT-User', { category: 'ai_assistant', requests: 12 }),
    agent('Bytespider', { operator: 'ByteDance', robots: 'blocked', namedInRobotsTxt: true, disallowedPaths: ['/'] }),
    agent('Google-Extended', { operator: 'Google', fetchedAs: 'Googlebot' }),
  ],
  spoofed: { requests: 30, share: 0.075, rendersAvoided: 6, rendersCaused: 0, topClaimedBots: [{ bot: 'Googlebot', requests: 30 }], topUrls: [{ url: 'https://www.example.com/pricing', requests: 4 }] },
};

function serve(answer: { status?: number; body: unknown }) {
  return serveApi('readonly', (call) => (call.path === '/api/websites/demo/insights/ai-crawlers' ? answer : undefined));
}

const show = (path = '/w/demo/ai-agents') => renderPage([{ path: '/w/:website/ai-agents', element: <AiAgentsPage /> }], path);
const stateOf = (link: HTMLElement) => parseExplorerState(new URLSearchParams(link.getAttribute('href')!.split('?')[1]));

describe('AI agents page', () => {
  it("shows what the site's robots.txt says of each AI agent and what it crawled anyway, every figure linked to its rows in the explorer", async () => {
    const calls = serve({ body: { data: DATA, meta: { period: '30d', window, hostname: 'www.example.com' } } });
    show('/w/demo/ai-agents?period=30d');
    expect(await screen.findByRole('heading', { name: 'AI crawlers and robots.txt' })).toBeTruthy();
    expect(calls.filter((c) => c.path.endsWith('/insights/ai-crawlers')).map((c) => c.body)).toEqual([{ period: '30d' }]);
    expect(screen.getByText(/It names 2 of the 4 known AI agents\. Of all of them it allows 1, partly disallows 1 and blocks 1\. 2 of them made 52 requests/)).toBeTruthy();
    expect(screen.getByText(/1 of them fetched 7 pages robots\.txt disallowed them anyway/)).toBeTruthy();

    const table = screen.getByRole('table', { name: /AI agents that read the site in the period, and those its robots.txt names/ });
    const rows = within(table).getAllByRole('row').slice(1);
    // Google-Extended neither read the site nor is named: shown with all agents only.
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual(['GPTBot', 'ChatGPT-User', 'Bytespider']);
    expect(within(rows[0]).getAllByRole('cell').map((c) => c.textContent)).toEqual(['OpenAI', 'AI training', 'Partly disallowed/docs/named in robots.txt', '40', '7', '/docs/a?x=1 (5)']);
    expect(within(rows[2]).getAllByRole('cell')[2].textContent).toBe('Blockednamed in robots.txt');
    expect(within(rows[1]).getAllByRole('cell')[2].textContent).toBe('Allowedrules for all bots (*)');
    const disallowed = within(rows[0]).getByRole('link', { name: '7 disallowed requests by GPTBot' });
    expect(stateOf(disallowed)).toMatchObject({ explorer: 'events', mode: 'requests', period: '30d', filters: [{ field: 'bot_name', op: 'equals', val: 'GPTBot' }, { field: 'robots_allowed', op: 'eq', val: 'no' }] });
    expect(within(rows[0]).getByRole('link', { name: '/docs/a?x=1 (5)' }).getAttribute('title')).toBe('https://www.example.com/docs/a?x=1');

    fireEvent.click(screen.getByRole('checkbox', { name: 'Show all 4 known AI agents' }));
    const everyAgent = screen.getByRole('table', { name: /Every known AI agent/ });
    expect(within(everyAgent).getByRole('rowheader', { name: /Google-Extended/ }).textContent).toBe('Google-Extendedrobots.txt token; fetched as Googlebot');

    expect(screen.getByRole('heading', { name: 'Spoofed bots' })).toBeTruthy();
    expect(stateOf(screen.getByRole('link', { name: '30 requests' })).filters).toEqual([{ field: 'verified', op: 'eq', val: 'no' }]);
    expect(screen.getByText(/7\.5% of bot requests\)\. 6 renders were avoided/)).toBeTruthy();
    const claimed = screen.getByRole('table', { name: 'Bots most claimed falsely' });
    expect(stateOf(within(claimed).getByRole('link', { name: 'Googlebot' })).filters).toEqual([{ field: 'verified', op: 'eq', val: 'no' }, { field: 'bot_name', op: 'equals', val: 'Googlebot' }]);
    expect(within(screen.getByRole('table', { name: 'Pages spoofed bots requested most' })).getByRole('link', { name: '/pricing' })).toBeTruthy();
  });

  it('says when the robots.txt could not be read and nothing was spoofed, and shows a refusal', async () => {
    const unreadable: AiCrawlersResult['data'] = {
      ...DATA,
      robotsTxt: { ...DATA.robotsTxt, state: 'unreachable', httpStatus: null, reason: 'https://www.example.com/robots.txt: timed out' },
      summary: { ...DATA.summary, allowed: 0, partlyDisallowed: 0, blocked: 0, unknown: 4 },
      agents: DATA.agents.map((a) => ({ ...a, robots: 'unknown', disallowedPaths: [] })),
      spoofed: { requests: 0, share: 0, rendersAvoided: 0, rendersCaused: 0, topClaimedBots: [], topUrls: [] },
    };
    serve({ body: { data: unreadable, meta: { period: '7d', window, hostname: 'www.example.com' } } });
    show();
    expect(await screen.findByText(/could not be read: https:\/\/www\.example\.com\/robots\.txt: timed out/)).toBeTruthy();
    expect(screen.getByText(/\(4 unknown\)/)).toBeTruthy();
    expect(screen.getByText('No request in this period claimed to be a bot it was proven not to be.')).toBeTruthy();
    cleanup();
    serve(envelope(400, 'VALIDATION_FAILED', 'period must be a preset or YYYY-MM-DD,YYYY-MM-DD', 'period'));
    show('/w/demo/ai-agents?period=1y');
    expect((await screen.findByRole('alert')).textContent).toBe('period must be a preset or YYYY-MM-DD,YYYY-MM-DD');
  });
});
