// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { BotCategoriesResult } from '../../api/types';
import { envelope, renderPage, serveApi } from '../../test-support';
import { parseExplorerState } from '../../lib/explorer-state';
import { ReadersByCategory } from './readers-by-category';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const window = { start: '2026-11-20T00:00:00.000Z', end: '2026-11-27T00:00:00.000Z' };
const categoryFilter = {
  field: 'bot_category', title: 'Bot category', type: 'enum', required: false, modes: ['requests'], operators: ['eq', 'ne'], valuelessOperators: [],
  options: [{ value: 'search', label: 'Search' }, { value: 'ai_assistant', label: 'AI assistant' }, { value: 'ai_training', label: 'AI training' }],
};
const discovery = {
  explorers: [{ key: 'events', features: {}, modes: [{ key: 'requests', default: true, columns: [], filters: [categoryFilter], defaults: {} }], periods: {}, limits: {} }],
  limits: { perPageMax: 500, perPageDefault: 100, exportRowCap: 1_000_000 },
};
const FIGURES: BotCategoriesResult['data'] = {
  requests: 4000,
  categories: [
    { category: 'search', requests: 2760, share: 0.69, pages: 900 },
    { category: 'ai_assistant', requests: 1000, share: 0.25, pages: 120 },
    { category: 'ai_training', requests: 240, share: 0.06, pages: 200 },
  ],
  aiAgents: { requests: 1240, share: 0.31, pages: 310 },
  topAiPages: [
    { category: 'ai_assistant', url: 'https://www.example.com/pricing', requests: 212 },
    { category: 'ai_training', url: 'https://www.example.com/docs/a?x=1', requests: 9 },
  ],
};

function serve(answer: { status?: number; body: unknown }) {
  return serveApi('readonly', (call) => {
    if (call.path === '/api/websites/demo/data-explorer') return { body: discovery };
    if (call.path === '/api/websites/demo/insights/bot-categories') return answer;
    return undefined;
  });
}

const show = () => renderPage([{ path: '/w/:website', element: <ReadersByCategory website="demo" period="7d" /> }], '/w/demo');

describe('ReadersByCategory', () => {
  it('tells what AI agents read, splits requests by category with their labels from discovery, and lists the AI pages, each linked to its rows in the explorer', async () => {
    const calls = serve({ body: { data: FIGURES, meta: { period: '7d', window } } });
    show();
    expect(await screen.findByRole('heading', { name: 'Who reads' })).toBeTruthy();
    expect(screen.getByText(/AI agents made 1,240 requests for 310 pages, 31% of bot requests/)).toBeTruthy();
    expect(calls.find((c) => c.path.endsWith('/insights/bot-categories'))?.body).toEqual({ period: '7d' });
    expect(screen.getByRole('link', { name: 'Which AI crawlers robots.txt allows, and which crawl anyway' }).getAttribute('href')).toBe('/w/demo/ai-agents?period=7d');

    const categories = screen.getByRole('table', { name: 'Bot requests by category' });
    const rows = within(categories).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['2,760', '69%', '900'],
      ['1,000', '25%', '120'],
      ['240', '6%', '200'],
    ]);
    const assistant = await within(categories).findByRole('link', { name: 'AI assistant' });
    const state = parseExplorerState(new URLSearchParams(assistant.getAttribute('href')!.split('?')[1]));
    expect(state).toMatchObject({ explorer: 'events', mode: 'requests', period: '7d', filters: [{ field: 'bot_category', op: 'eq', val: 'ai_assistant' }] });
    const pages = within(categories).getByRole('link', { name: '120 pages read by AI assistant bots' });
    expect(parseExplorerState(new URLSearchParams(pages.getAttribute('href')!.split('?')[1]))).toMatchObject({ mode: 'unique_pages', sort: 'requests', sortDir: 'desc' });

    const top = screen.getByRole('table', { name: 'The pages each kind of AI agent read most' });
    const pricing = within(top).getByRole('link', { name: '/pricing' });
    expect(pricing.getAttribute('title')).toBe('https://www.example.com/pricing');
    expect(parseExplorerState(new URLSearchParams(pricing.getAttribute('href')!.split('?')[1])).filters).toEqual([
      { field: 'bot_category', op: 'eq', val: 'ai_assistant' },
      { field: 'url', op: 'equals', val: 'https://www.example.com/pricing' },
    ]);
    expect(within(top).getAllByRole('row')[1].textContent).toBe('AI assistant/pricing212');
    expect(within(top).getByRole('link', { name: '/docs/a?x=1' })).toBeTruthy();
  });

  it('shows a category discovery does not list as recorded, says when no AI agent read anything, and shows a refusal', async () => {
    serve({ body: { data: { requests: 3, categories: [{ category: 'ai_agentic', requests: 3, share: 1, pages: 1 }], aiAgents: { requests: 0, share: 0, pages: 0 }, topAiPages: [] }, meta: { period: '7d', window } } });
    show();
    expect(await screen.findByText('No AI agent read a page in this period.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'ai_agentic' })).toBeTruthy();
    cleanup();
    serve(envelope(400, 'VALIDATION_FAILED', 'period must be a preset', 'period'));
    show();
    expect(await screen.findByText('period must be a preset')).toBeTruthy();
  });
});
