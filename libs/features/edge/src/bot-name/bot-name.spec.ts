import { botNameOf, KNOWN_BOTS, OTHER_BOT } from './bot-name';

describe('botNameOf', () => {
  it.each([
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot'],
    ['Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot'],
    ['Googlebot-Image/1.0', 'Googlebot-Image'],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'Bingbot'],
    ['Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)', 'YandexBot'],
    ['Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)', 'Baiduspider'],
    ['DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)', 'DuckDuckBot'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)', 'Applebot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', 'GPTBot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', 'ClaudeBot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)', 'PerplexityBot'],
    ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 'facebookexternalhit'],
    ['Twitterbot/1.0', 'Twitterbot'],
    ['TelegramBot (like TwitterBot)', 'TelegramBot'],
    ['LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)', 'LinkedInBot'],
  ])('names %s as %s', (userAgent, name) => {
    expect(botNameOf(userAgent)).toBe(name);
  });

  it('records an unknown or empty User-Agent as other', () => {
    expect(botNameOf('Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0')).toBe(OTHER_BOT);
    expect(botNameOf('')).toBe(OTHER_BOT);
  });

  it('checks specific tokens before their family name', () => {
    for (const [i, bot] of KNOWN_BOTS.entries()) {
      const earlierMatch = KNOWN_BOTS.slice(0, i).find((b) => bot.token.includes(b.token));
      expect(earlierMatch).toBeUndefined();
    }
  });
});
