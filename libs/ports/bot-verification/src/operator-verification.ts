/**
 * The domains each operator documents for forward-confirmed reverse DNS of
 * its crawlers (operator names as the bot classifier gives them). Operators
 * that document only published ranges (OpenAI, Perplexity, DuckDuckGo) are
 * not here.
 */
export const REVERSE_DNS_DOMAINS: Readonly<Record<string, readonly string[]>> = {
  // developers.google.com/search/docs/crawling-indexing/verifying-googlebot
  Google: ['googlebot.com', 'google.com', 'googleusercontent.com'],
  // bing.com/webmasters/help/how-to-verify-bingbot
  Microsoft: ['search.msn.com'],
  // support.apple.com/en-us/119829
  Apple: ['applebot.apple.com'],
  // yandex.com/support/webmaster/robot-workings/check-yandex-robots.html
  Yandex: ['yandex.ru', 'yandex.net', 'yandex.com'],
  // Baidu's spider help page
  Baidu: ['baidu.com', 'baidu.jp'],
  // developer.amazon.com/amazonbot
  Amazon: ['crawl.amazonbot.amazon'],
  // aspiegel.com/petalbot
  Huawei: ['petalsearch.com'],
};

/**
 * The bots (names as the bot classifier gives them) that their operator's
 * documented method covers, per operator: only their claims are checked. An
 * operator also names bots that fetch from anywhere else (Google's
 * HeadlessChrome and Lighthouse, Microsoft's AppInsights, Amazon's
 * CloudFront and Bedrock agents): checking those against the crawler ranges
 * or domains would prove real ones false, so they stay `unknown`.
 */
export const VERIFIABLE_BOTS: Readonly<Record<string, readonly string[]>> = {
  // Google's common crawlers, special-case crawlers and user-triggered fetchers (developers.google.com/search/docs/crawling-indexing/google-common-crawlers, …-special-case-crawlers, …-user-triggered-fetchers).
  Google: [
    'Googlebot',
    'Googlebot-Image',
    'Googlebot-News',
    'Googlebot-Video',
    'Google-InspectionTool',
    'Storebot-Google',
    'GoogleOther',
    'GoogleOther-Image',
    'GoogleOther-Video',
    'Google-CloudVertexBot',
    'Google-Extended',
    'APIs-Google',
    'AdsBot-Google',
    'AdsBot-Google-Mobile',
    'Mediapartners-Google',
    'Mediapartners',
    'Google-Safety',
    'Feedfetcher-Google',
    'GoogleProducer',
    'Google-Read-Aloud',
    'Google-Site-Verification',
    'Google-NotebookLM',
  ],
  // Bing's crawlers (bing.com/webmasters/help/which-crawlers-does-bing-use).
  Microsoft: ['Bingbot', 'msnbot', 'AdIdxBot', 'BingPreview', 'MicrosoftPreview'],
  Apple: ['Applebot', 'Applebot-Extended'],
  // Every Yandex robot resolves under its domains.
  Yandex: ['YandexBot', 'YandexMobileBot', 'Yandex', 'YandexAdditionalBot', 'YandexAdditional', 'YandexRenderResourcesBot', 'yandex.com'],
  Baidu: ['Baiduspider'],
  Amazon: ['Amazonbot'],
  Huawei: ['PetalBot', 'AspiegelBot'],
  // Range files only (RANGE_SOURCES), one per crawler: platform.openai.com/docs/bots, docs.perplexity.ai (Perplexity Crawlers), duckduckgo.com/duckduckgo-help-pages/results/duckduckbot and …/duckassistbot.
  OpenAI: ['GPTBot', 'OAI-SearchBot', 'ChatGPT-User'],
  Perplexity: ['PerplexityBot', 'Perplexity-User', 'PerplexityUser'],
  DuckDuckGo: ['DuckDuckBot', 'DuckAssistBot'],
};
