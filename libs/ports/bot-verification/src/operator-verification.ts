/**
 * The domains each operator documents for forward-confirmed reverse DNS of
 * its crawlers (operator names as the bot classifier gives them). Operators
 * that document only published ranges (OpenAI, Perplexity) are not here.
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
