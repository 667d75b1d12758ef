/** Prompts for the common analyses: each names the tools and arguments that answer it, so the model does not guess. */
interface PromptArgument {
  readonly name: string;
  readonly description: string;
  readonly required: boolean;
}

export interface ConnectorPrompt {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly arguments: readonly PromptArgument[];
  readonly text: (args: Record<string, string>) => string;
}

const WEBSITE: PromptArgument = { name: 'website', description: 'Website id (list_websites)', required: true };
const PERIOD = (fallback: string): PromptArgument => ({ name: 'period', description: `Period preset or YYYY-MM-DD,YYYY-MM-DD; default ${fallback}`, required: false });

export const CONNECTOR_PROMPTS: readonly ConnectorPrompt[] = [
  {
    name: 'crawl_drop_investigation',
    title: 'Crawl drop investigation',
    description: 'Which pages did bots (e.g. Googlebot) stop crawling, and why?',
    arguments: [WEBSITE, PERIOD('28d'), { name: 'bot', description: 'Bot name to focus on, e.g. Googlebot; default all bots', required: false }],
    text: ({ website, period = '28d', bot }) =>
      [
        `Investigate a crawl drop on website "${website}" over ${period}${bot ? ` for ${bot}` : ''}.`,
        `1. get_insights {website: "${website}", period: "${period}", metric: "requests", splitBy: "bot_family"} — compare requests and pages with the previous period and find the day the drop starts.`,
        `2. query_explorer {website: "${website}", explorer: "events", mode: "comparison", compCategory: "lost", period: "${period}", sort: "comp_requests", sortDir: "desc"${bot ? `, filters: [{field: "bot_name", op: "equals", val: "${bot}"}]` : ''}} — the pages crawled in the window before and not any more, most crawled first (page through with nextPage).`,
        `3. For the lost pages, query_explorer mode "requests" with a url filter to see their last status codes, cache status and serve times: 4xx/5xx, slow renders (serve_time in ms) or misses explain many drops.`,
        '4. Summarise: how big the drop is, which sections lost crawling, the likely causes, and what to recache (recache_urls needs the manager role; ask before changing anything).',
      ].join('\n'),
  },
  {
    name: 'stale_pages',
    title: 'Pages bots get stale',
    description: 'Which pages do bots get from stale snapshots, and should they be recached?',
    arguments: [WEBSITE, PERIOD('7d')],
    text: ({ website, period = '7d' }) =>
      [
        `Find the pages bots get stale on website "${website}" over ${period}.`,
        `1. query_explorer {website: "${website}", explorer: "events", mode: "requests", period: "${period}", columns: ["page", "event_date_time", "bot_name", "cache_status", "snapshot_age"], filters: [{field: "cache_status", op: "eq", val: "stale"}], sort: "snapshot_age", sortDir: "desc"} — the stalest serves first (snapshot_age in seconds).`,
        `2. query_explorer mode "unique_pages" with the same filter — the pages most requested while stale, with their hit rate.`,
        `3. get_queue_status {website: "${website}"} — whether renders are waiting or draining is paused.`,
        '4. Propose the pages to recache (priority high for the most crawled, at most 100); call recache_urls only after the user agrees.',
      ].join('\n'),
  },
  {
    name: 'search_clicks_vs_crawl',
    title: 'Search clicks against crawling',
    description: 'Do the pages that earn search clicks get crawled, and are crawled pages earning clicks?',
    arguments: [WEBSITE, PERIOD('28d')],
    text: ({ website, period = '28d' }) =>
      [
        `Compare search clicks with bot crawling on website "${website}" over ${period}.`,
        `1. query_explorer {website: "${website}", explorer: "search-pages", period: "${period}", sort: "clicks", sortDir: "desc"} — the pages earning clicks (ctr 0..1, position averaged).`,
        `2. query_explorer {website: "${website}", explorer: "events", mode: "unique_pages", period: "${period}", sort: "requests", sortDir: "desc"} — the pages bots crawl most.`,
        `3. get_insights {website: "${website}", period: "${period}", metric: "clicks"} and again with metric "requests" — daily trends side by side.`,
        '4. Report pages with many clicks but little crawling (at risk of going stale), and pages crawled heavily with no clicks; suggest recaching the former.',
      ].join('\n'),
  },
];
