import { AI_BOT_CATEGORIES } from './insights-catalog';
import type { InsightsBotCategoriesResult } from './insights.query';
import type { AiAgentsRow, AiPageRow, BotCategoryRow } from './insights-sql';

/** A share rounded like the explorer's percent columns (4 decimals). */
function share(part: number, whole: number): number {
  return Math.round((part / whole) * 10_000) / 10_000;
}

/** The answer's `data` from the three statements' rows (pure): shares of the window's requests, AI pages in their categories' order. */
export function botCategoryFigures(categories: readonly BotCategoryRow[], aiAgents: AiAgentsRow | undefined, topAiPages: readonly AiPageRow[]): InsightsBotCategoriesResult['data'] {
  const requests = categories.reduce((sum, row) => sum + Number(row.requests), 0);
  const aiRequests = Number(aiAgents?.requests ?? 0);
  const rank = (category: string) => AI_BOT_CATEGORIES.indexOf(category as (typeof AI_BOT_CATEGORIES)[number]);
  return {
    requests,
    categories: categories.map((row) => ({ category: row.category, requests: Number(row.requests), share: share(Number(row.requests), requests), pages: Number(row.pages) })),
    aiAgents: { requests: aiRequests, share: requests === 0 ? null : share(aiRequests, requests), pages: Number(aiAgents?.pages ?? 0) },
    topAiPages: topAiPages
      .map((row) => ({ category: row.category, url: row.url, requests: Number(row.requests) }))
      .sort((a, b) => rank(a.category) - rank(b.category) || b.requests - a.requests || (a.url < b.url ? -1 : a.url > b.url ? 1 : 0)),
  };
}
