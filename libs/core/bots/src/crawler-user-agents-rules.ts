import type { BotCategory } from './bot-category';
import { UNKNOWN_OPERATOR } from './bot-category';

/** One entry of the crawler-user-agents package (the fields we read). */
export interface CrawlerUserAgentsEntry {
  readonly pattern: string;
  readonly url?: string;
  readonly instances: readonly string[];
  readonly tags?: readonly string[];
}

// Ordered: the first tag rule an entry has decides. An AI crawler that also indexes for search is AI search;
// a link-preview fetcher stays social even when the package suspects AI use too (the preview is what it fetches for).
const TAG_RULES: readonly { readonly category: BotCategory; readonly when: (tags: ReadonlySet<string>) => boolean }[] = [
  { category: 'ai_search', when: (tags) => tags.has('ai-crawler') && tags.has('search-engine') },
  { category: 'social', when: (tags) => tags.has('social-preview') },
  { category: 'ai_training', when: (tags) => tags.has('ai-crawler') },
  { category: 'search', when: (tags) => tags.has('search-engine') },
  { category: 'seo_tool', when: (tags) => tags.has('seo') },
  { category: 'monitoring', when: (tags) => tags.has('monitoring') },
];

/**
 * The category of a crawler-user-agents entry from its `tags`: `ai-crawler`
 * with `search-engine` → `ai_search`, `social-preview` → `social`,
 * `ai-crawler` → `ai_training`, `search-engine` → `search`, `seo` →
 * `seo_tool`, `monitoring` → `monitoring`; advertising, feed readers, HTTP
 * libraries, archivers, scanners, academic crawlers and browser automation →
 * `other`.
 */
export function categoryOfCrawlerTags(tags: readonly string[]): BotCategory {
  const set = new Set(tags);
  return TAG_RULES.find((rule) => rule.when(set))?.category ?? 'other';
}

// The package has no operator field; an entry's documentation URL names it when it is on the operator's own domain.
// Only operators' own domains are listed: many URLs point to third-party bot directories, which name no operator.
const OPERATOR_DOMAINS: Readonly<Record<string, string>> = {
  'google.com': 'Google',
  'googlebot.com': 'Google',
  'bing.com': 'Microsoft',
  'msn.com': 'Microsoft',
  'microsoft.com': 'Microsoft',
  'yahoo.com': 'Yahoo',
  'yahoo.co.jp': 'Yahoo',
  'yandex.com': 'Yandex',
  'yandex.ru': 'Yandex',
  'baidu.com': 'Baidu',
  'duckduckgo.com': 'DuckDuckGo',
  'apple.com': 'Apple',
  'facebook.com': 'Meta',
  'fb.com': 'Meta',
  'meta.com': 'Meta',
  'whatsapp.com': 'Meta',
  'amazon.com': 'Amazon',
  'openai.com': 'OpenAI',
  'anthropic.com': 'Anthropic',
  'perplexity.ai': 'Perplexity',
  'bytedance.com': 'ByteDance',
  'commoncrawl.org': 'Common Crawl',
  'ahrefs.com': 'Ahrefs',
  'semrush.com': 'Semrush',
  'majestic12.co.uk': 'Majestic',
  'majestic.com': 'Majestic',
  'moz.com': 'Moz',
  'screamingfrog.co.uk': 'Screaming Frog',
  'uptimerobot.com': 'UptimeRobot',
  'pingdom.com': 'Pingdom',
  'twitter.com': 'X',
  'x.com': 'X',
  'linkedin.com': 'LinkedIn',
  'slack.com': 'Slack',
  'discord.com': 'Discord',
  'discordapp.com': 'Discord',
  'pinterest.com': 'Pinterest',
  'reddit.com': 'Reddit',
  'telegram.org': 'Telegram',
  'seznam.cz': 'Seznam',
  'naver.com': 'Naver',
  'sogou.com': 'Sogou',
  'so.com': 'Qihoo 360',
  'huawei.com': 'Huawei',
  'aspiegel.com': 'Huawei',
  'qwant.com': 'Qwant',
  'mojeek.com': 'Mojeek',
  'cloudflare.com': 'Cloudflare',
  'datadoghq.com': 'Datadog',
  'brave.com': 'Brave',
  'embed.ly': 'Embedly',
};

/** The operator of a crawler-user-agents entry from its documentation URL's host (itself or a parent domain in the table), else `unknown`. */
export function operatorOfCrawlerUrl(url: string | undefined): string {
  const host = hostOf(url);
  if (host === undefined) return UNKNOWN_OPERATOR;
  const labels = host.split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const operator = OPERATOR_DOMAINS[labels.slice(i).join('.')];
    if (operator !== undefined) return operator;
  }
  return UNKNOWN_OPERATOR;
}

function hostOf(url: string | undefined): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  return new URL(url).hostname.toLowerCase();
}
