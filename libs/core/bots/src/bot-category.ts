/**
 * Why a bot reads a page: classic search indexing, AI search indexing, an AI
 * assistant fetching because a person asked, collection for AI training,
 * link previews, SEO tools, uptime and performance monitoring, or anything else.
 */
export const BOT_CATEGORIES = ['search', 'ai_search', 'ai_assistant', 'ai_training', 'social', 'seo_tool', 'monitoring', 'other'] as const;

export type BotCategory = (typeof BOT_CATEGORIES)[number];

/** Who a User-Agent says it is: the bot's name, its category and the company that runs it. */
export interface BotIdentity {
  readonly name: string;
  readonly category: BotCategory;
  readonly operator: string;
}

/** The name recorded for a User-Agent that names no known bot (the edge's name for it since before the vendored lists). */
export const OTHER_BOT = 'other';

/** The operator recorded when no source names one. */
export const UNKNOWN_OPERATOR = 'unknown';

export const UNKNOWN_BOT: BotIdentity = { name: OTHER_BOT, category: 'other', operator: UNKNOWN_OPERATOR };
