import { botCategoryFigures } from './bot-category-figures';

describe('botCategoryFigures', () => {
  it('gives each category its share of the window, AI agents theirs, and AI pages in category order, most requested first', () => {
    const data = botCategoryFigures(
      [
        { category: 'search', requests: 600, pages: 300 },
        { category: 'ai_assistant', requests: 300, pages: 40 },
        { category: 'ai_training', requests: 100, pages: 90 },
      ],
      { requests: 400, pages: 110 },
      [
        { category: 'ai_training', url: 'https://e.com/docs', requests: 9 },
        { category: 'ai_assistant', url: 'https://e.com/b', requests: 7 },
        { category: 'ai_assistant', url: 'https://e.com/pricing', requests: 212 },
        { category: 'ai_assistant', url: 'https://e.com/a', requests: 7 },
      ],
    );
    expect(data.requests).toBe(1000);
    expect(data.categories).toEqual([
      { category: 'search', requests: 600, share: 0.6, pages: 300 },
      { category: 'ai_assistant', requests: 300, share: 0.3, pages: 40 },
      { category: 'ai_training', requests: 100, share: 0.1, pages: 90 },
    ]);
    expect(data.aiAgents).toEqual({ requests: 400, share: 0.4, pages: 110 });
    expect(data.topAiPages.map((p) => [p.category, p.url, p.requests])).toEqual([
      ['ai_assistant', 'https://e.com/pricing', 212],
      ['ai_assistant', 'https://e.com/a', 7],
      ['ai_assistant', 'https://e.com/b', 7],
      ['ai_training', 'https://e.com/docs', 9],
    ]);
  });

  it('has no share without requests, and reads counts the engine sent as strings as numbers', () => {
    expect(botCategoryFigures([], undefined, [])).toEqual({ requests: 0, categories: [], aiAgents: { requests: 0, share: null, pages: 0 }, topAiPages: [] });
    const data = botCategoryFigures([{ category: 'other', requests: '3' as unknown as number, pages: '2' as unknown as number }], { requests: 0, pages: 0 }, []);
    expect(data.categories).toEqual([{ category: 'other', requests: 3, share: 1, pages: 2 }]);
    expect(data.aiAgents.share).toBe(0);
  });
});
