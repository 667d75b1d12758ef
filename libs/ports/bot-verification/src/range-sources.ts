/** Where an operator publishes a range file, and which of its crawlers the file covers. */
export interface RangeSource {
  readonly file: string;
  readonly operator: string;
  readonly crawlers: string;
  readonly url: string;
}

const GOOGLE = 'https://developers.google.com/static/crawling/ipranges';

/** The official range files (`npm run bots:update-ranges` downloads them; docs/bots.md). */
export const RANGE_SOURCES: readonly RangeSource[] = [
  { file: 'googlebot.json', operator: 'Google', crawlers: "Googlebot and Google's other common crawlers", url: `${GOOGLE}/common-crawlers.json` },
  { file: 'google-special-crawlers.json', operator: 'Google', crawlers: 'AdsBot, Mediapartners and other special-case crawlers', url: `${GOOGLE}/special-crawlers.json` },
  { file: 'google-user-triggered-fetchers.json', operator: 'Google', crawlers: 'user-triggered fetchers (Google Site Verifier, feeds, …)', url: `${GOOGLE}/user-triggered-fetchers.json` },
  { file: 'google-user-triggered-fetchers-google.json', operator: 'Google', crawlers: 'user-triggered fetchers on Google-owned addresses', url: `${GOOGLE}/user-triggered-fetchers-google.json` },
  { file: 'bingbot.json', operator: 'Microsoft', crawlers: 'Bingbot', url: 'https://www.bing.com/toolbox/bingbot.json' },
  { file: 'openai-gptbot.json', operator: 'OpenAI', crawlers: 'GPTBot', url: 'https://openai.com/gptbot.json' },
  { file: 'openai-searchbot.json', operator: 'OpenAI', crawlers: 'OAI-SearchBot', url: 'https://openai.com/searchbot.json' },
  { file: 'openai-chatgpt-user.json', operator: 'OpenAI', crawlers: 'ChatGPT-User', url: 'https://openai.com/chatgpt-user.json' },
  { file: 'perplexitybot.json', operator: 'Perplexity', crawlers: 'PerplexityBot', url: 'https://www.perplexity.com/perplexitybot.json' },
  { file: 'perplexity-user.json', operator: 'Perplexity', crawlers: 'Perplexity-User', url: 'https://www.perplexity.com/perplexity-user.json' },
  { file: 'applebot.json', operator: 'Apple', crawlers: 'Applebot', url: 'https://search.developer.apple.com/applebot.json' },
  { file: 'duckduckbot.json', operator: 'DuckDuckGo', crawlers: 'DuckDuckBot', url: 'https://duckduckgo.com/duckduckbot.json' },
  { file: 'duckassistbot.json', operator: 'DuckDuckGo', crawlers: 'DuckAssistBot', url: 'https://duckduckgo.com/duckassistbot.json' },
];
