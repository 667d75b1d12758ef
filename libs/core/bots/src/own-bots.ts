import { UNKNOWN_OPERATOR, type BotCategory } from './bot-category';

/** A bot we name ourselves: its name, the lowercase token that finds it in a User-Agent, its operator, and its category when the vendored lists' is wrong for us. */
export interface OwnBot {
  readonly name: string;
  readonly token: string;
  readonly operator: string;
  readonly category?: BotCategory;
}

/**
 * The bots the edge has named since before the vendored lists, with the same
 * names and tokens in the same order (most specific first), so the names the
 * explorer holds do not change; they are matched before the vendored lists,
 * as substrings, as the edge did. Neither list names operators reliably
 * (crawler-user-agents has none, ai.robots.txt often says "unclear"), so each
 * carries its operator; a category is given only where the lists' is wrong
 * for us (why, beside it), else it comes from them.
 */
export const OWN_BOTS: readonly OwnBot[] = [
  { name: 'Googlebot-Image', token: 'googlebot-image', operator: 'Google' },
  { name: 'Googlebot-News', token: 'googlebot-news', operator: 'Google' },
  { name: 'Googlebot-Video', token: 'googlebot-video', operator: 'Google' },
  { name: 'Google-InspectionTool', token: 'google-inspectiontool', operator: 'Google' },
  { name: 'Storebot-Google', token: 'storebot-google', operator: 'Google' },
  { name: 'AdsBot-Google', token: 'adsbot-google', operator: 'Google' },
  { name: 'Mediapartners-Google', token: 'mediapartners-google', operator: 'Google' },
  // A robots.txt product token, never sent as a User-Agent (Google crawls as Googlebot); kept so a UA claiming it is still named.
  { name: 'Google-Extended', token: 'google-extended', operator: 'Google' },
  { name: 'Googlebot', token: 'googlebot', operator: 'Google' },
  { name: 'Bingbot', token: 'bingbot', operator: 'Microsoft' },
  { name: 'BingPreview', token: 'bingpreview', operator: 'Microsoft' },
  // Bing Ads' landing-page checker: advertising, as the lists file AdsBot-Google (crawler-user-agents files its samples under Bingbot's search entry).
  { name: 'AdIdxBot', token: 'adidxbot', operator: 'Microsoft', category: 'other' },
  { name: 'YandexBot', token: 'yandexbot', operator: 'Yandex' },
  { name: 'YandexMobileBot', token: 'yandexmobilebot', operator: 'Yandex' },
  // Yandex's other robots say only "yandex.com/bots"; they index for Yandex search.
  { name: 'Yandex', token: 'yandex.com/bots', operator: 'Yandex', category: 'search' },
  { name: 'Baiduspider', token: 'baiduspider', operator: 'Baidu' },
  { name: 'DuckDuckBot', token: 'duckduckbot', operator: 'DuckDuckGo' },
  { name: 'DuckAssistBot', token: 'duckassistbot', operator: 'DuckDuckGo' },
  { name: 'Applebot-Extended', token: 'applebot-extended', operator: 'Apple' },
  // ai.robots.txt files Applebot under AI search; Apple documents it as the crawler of Spotlight, Siri and Safari search (AI training is Applebot-Extended's token).
  { name: 'Applebot', token: 'applebot', operator: 'Apple', category: 'search' },
  { name: 'GPTBot', token: 'gptbot', operator: 'OpenAI' },
  { name: 'ChatGPT-User', token: 'chatgpt-user', operator: 'OpenAI' },
  { name: 'OAI-SearchBot', token: 'oai-searchbot', operator: 'OpenAI' },
  { name: 'ClaudeBot', token: 'claudebot', operator: 'Anthropic' },
  { name: 'Claude-User', token: 'claude-user', operator: 'Anthropic' },
  { name: 'Claude-SearchBot', token: 'claude-searchbot', operator: 'Anthropic' },
  { name: 'anthropic-ai', token: 'anthropic-ai', operator: 'Anthropic' },
  { name: 'PerplexityBot', token: 'perplexitybot', operator: 'Perplexity' },
  { name: 'Perplexity-User', token: 'perplexity-user', operator: 'Perplexity' },
  { name: 'CCBot', token: 'ccbot', operator: 'Common Crawl' },
  { name: 'Bytespider', token: 'bytespider', operator: 'ByteDance' },
  { name: 'Amazonbot', token: 'amazonbot', operator: 'Amazon' },
  { name: 'meta-externalagent', token: 'meta-externalagent', operator: 'Meta' },
  // ai.robots.txt lists it on suspicion of AI use; Meta documents it as the link-preview fetcher, which is what it fetches our pages for.
  { name: 'facebookexternalhit', token: 'facebookexternalhit', operator: 'Meta', category: 'social' },
  { name: 'Facebot', token: 'facebot', operator: 'Meta' },
  // Before Twitterbot: Telegram's crawler says "TelegramBot (like TwitterBot)".
  { name: 'TelegramBot', token: 'telegrambot', operator: 'Telegram' },
  { name: 'Twitterbot', token: 'twitterbot', operator: 'X' },
  { name: 'LinkedInBot', token: 'linkedinbot', operator: 'LinkedIn' },
  { name: 'Slackbot', token: 'slackbot', operator: 'Slack' },
  { name: 'Discordbot', token: 'discordbot', operator: 'Discord' },
  { name: 'WhatsApp', token: 'whatsapp', operator: 'Meta' },
  { name: 'Pinterestbot', token: 'pinterestbot', operator: 'Pinterest' },
  { name: 'redditbot', token: 'redditbot', operator: 'Reddit' },
  { name: 'Embedly', token: 'embedly', operator: 'Embedly' },
  { name: 'SeznamBot', token: 'seznambot', operator: 'Seznam' },
  { name: 'Naver Yeti', token: 'yeti/', operator: 'Naver' },
  { name: 'Sogou', token: 'sogou', operator: 'Sogou' },
  { name: '360Spider', token: '360spider', operator: 'Qihoo 360' },
  { name: 'PetalBot', token: 'petalbot', operator: 'Huawei' },
  { name: 'Qwantbot', token: 'qwantbot', operator: 'Qwant' },
  // Exalead's search crawler, as the edge has named it; ai.robots.txt's "ExaBot" (an AI data provider, operator unclear) shares the name but not the purpose we record.
  { name: 'Exabot', token: 'exabot', operator: 'Exalead', category: 'search' },
  { name: 'MojeekBot', token: 'mojeekbot', operator: 'Mojeek' },
  { name: 'AhrefsBot', token: 'ahrefsbot', operator: 'Ahrefs' },
  { name: 'SemrushBot', token: 'semrushbot', operator: 'Semrush' },
  { name: 'MJ12bot', token: 'mj12bot', operator: 'Majestic' },
  { name: 'DotBot', token: 'dotbot', operator: 'Moz' },
  { name: 'Screaming Frog SEO Spider', token: 'screaming frog', operator: 'Screaming Frog' },
  // Google's page-quality audit (PageSpeed Insights, Search Console): it measures pages, as monitoring does.
  { name: 'Lighthouse', token: 'chrome-lighthouse', operator: 'Google', category: 'monitoring' },
];

/** Operators we correct in ai.robots.txt: names it gives for tools that anyone runs, where the operator is the one running them, not the tool's maker. */
export const TOOL_OPERATOR_CORRECTIONS: Readonly<Record<string, string>> = {
  Scrapy: UNKNOWN_OPERATOR,
  Lightpanda: UNKNOWN_OPERATOR,
};
