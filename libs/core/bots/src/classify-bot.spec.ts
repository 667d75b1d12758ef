import crawlerUserAgents from './lists/crawler-user-agents.json';
import aiRobots from './lists/ai-robots.json';
import { aiCategoryOfFunction } from './ai-robots-rules';
import { BOT_CATEGORIES, UNKNOWN_BOT } from './bot-category';
import { CLASSIFIED_USER_AGENT_LENGTH, botCatalog, classifyBot, createBotClassifier } from './classify-bot';
import { OWN_BOTS } from './own-bots';
import { ROBOTS_TXT_ONLY_TOKENS } from './robots-txt-tokens';

describe('classifyBot', () => {
  it.each([
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)', 'GPTBot', 'ai_training', 'OpenAI'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot', 'OAI-SearchBot', 'ai_search', 'OpenAI'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', 'ChatGPT-User', 'ai_assistant', 'OpenAI'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', 'ClaudeBot', 'ai_training', 'Anthropic'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)', 'Claude-User', 'ai_assistant', 'Anthropic'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-SearchBot/1.0; +https://www.anthropic.com)', 'Claude-SearchBot', 'ai_search', 'Anthropic'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)', 'PerplexityBot', 'ai_search', 'Perplexity'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)', 'Perplexity-User', 'ai_assistant', 'Perplexity'],
    ['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot', 'search', 'Google'],
    ['Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', 'Googlebot', 'search', 'Google'],
    ['Googlebot-Image/1.0', 'Googlebot-Image', 'search', 'Google'],
    ['Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', 'Bingbot', 'search', 'Microsoft'],
    ['Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)', 'YandexBot', 'search', 'Yandex'],
    ['Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)', 'Baiduspider', 'search', 'Baidu'],
    ['DuckDuckBot/1.1; (+http://duckduckgo.com/duckduckbot.html)', 'DuckDuckBot', 'search', 'DuckDuckGo'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)', 'Applebot', 'search', 'Apple'],
    ['Mozilla/5.0 (compatible; Bytespider; spider-feedback@bytedance.com) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.0.0 Safari/537.36', 'Bytespider', 'ai_training', 'ByteDance'],
    ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'CCBot', 'ai_training', 'Common Crawl'],
    ['Mozilla/5.0 (compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)', 'Amazonbot', 'ai_training', 'Amazon'],
    ['meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)', 'meta-externalagent', 'ai_training', 'Meta'],
    ['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)', 'facebookexternalhit', 'social', 'Meta'],
    ['Twitterbot/1.0', 'Twitterbot', 'social', 'X'],
    ['TelegramBot (like TwitterBot)', 'TelegramBot', 'social', 'Telegram'],
    ['LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)', 'LinkedInBot', 'social', 'LinkedIn'],
    ['Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)', 'AhrefsBot', 'seo_tool', 'Ahrefs'],
    ['Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)', 'SemrushBot', 'seo_tool', 'Semrush'],
    ['Mozilla/5.0 (compatible; UptimeRobot/2.0; http://www.uptimerobot.com/)', 'UptimeRobot', 'monitoring', 'UptimeRobot'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36', 'other', 'other', 'unknown'],
  ])('classifies %s', (userAgent, name, category, operator) => {
    expect(classifyBot(userAgent)).toEqual({ name, category, operator });
  });

  it('answers other for an empty User-Agent and for browsers', () => {
    const browsers = [
      '',
      'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0',
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1',
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.104 Mobile Safari/537.36',
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
    ];
    for (const userAgent of browsers) expect(classifyBot(userAgent)).toEqual(UNKNOWN_BOT);
  });

  it('treats Google-Extended, a robots.txt token no crawler sends, as Google AI training and names the crawler that fetches for it', () => {
    expect(classifyBot('Google-Extended')).toEqual({ name: 'Google-Extended', category: 'ai_training', operator: 'Google' });
    expect(ROBOTS_TXT_ONLY_TOKENS['Google-Extended']).toBe('Googlebot');
  });

  it('keeps the name of every bot the edge has named, found by its token', () => {
    for (const bot of OWN_BOTS) expect(classifyBot(`Mozilla/5.0 (compatible; ${bot.token}/1.0)`).name).toBe(bot.name);
  });

  // The categories and operators the edge's bots get: the decisions to review when the lists or our table change.
  it.each([
    ['Googlebot-Image', 'search', 'Google'],
    ['Googlebot-News', 'search', 'Google'],
    ['Googlebot-Video', 'search', 'Google'],
    ['Google-InspectionTool', 'search', 'Google'],
    ['Storebot-Google', 'search', 'Google'],
    ['AdsBot-Google', 'other', 'Google'],
    ['Mediapartners-Google', 'other', 'Google'],
    ['Google-Extended', 'ai_training', 'Google'],
    ['Googlebot', 'search', 'Google'],
    ['Bingbot', 'search', 'Microsoft'],
    ['BingPreview', 'social', 'Microsoft'],
    ['AdIdxBot', 'other', 'Microsoft'],
    ['YandexBot', 'search', 'Yandex'],
    ['YandexMobileBot', 'search', 'Yandex'],
    ['Yandex', 'search', 'Yandex'],
    ['Baiduspider', 'search', 'Baidu'],
    ['DuckDuckBot', 'search', 'DuckDuckGo'],
    ['DuckAssistBot', 'ai_assistant', 'DuckDuckGo'],
    ['Applebot-Extended', 'ai_training', 'Apple'],
    ['Applebot', 'search', 'Apple'],
    ['GPTBot', 'ai_training', 'OpenAI'],
    ['ChatGPT-User', 'ai_assistant', 'OpenAI'],
    ['OAI-SearchBot', 'ai_search', 'OpenAI'],
    ['ClaudeBot', 'ai_training', 'Anthropic'],
    ['Claude-User', 'ai_assistant', 'Anthropic'],
    ['Claude-SearchBot', 'ai_search', 'Anthropic'],
    ['anthropic-ai', 'ai_training', 'Anthropic'],
    ['PerplexityBot', 'ai_search', 'Perplexity'],
    ['Perplexity-User', 'ai_assistant', 'Perplexity'],
    ['CCBot', 'ai_training', 'Common Crawl'],
    ['Bytespider', 'ai_training', 'ByteDance'],
    ['Amazonbot', 'ai_training', 'Amazon'],
    ['meta-externalagent', 'ai_training', 'Meta'],
    ['facebookexternalhit', 'social', 'Meta'],
    ['Facebot', 'social', 'Meta'],
    ['TelegramBot', 'social', 'Telegram'],
    ['Twitterbot', 'social', 'X'],
    ['LinkedInBot', 'social', 'LinkedIn'],
    ['Slackbot', 'social', 'Slack'],
    ['Discordbot', 'social', 'Discord'],
    ['WhatsApp', 'social', 'Meta'],
    ['Pinterestbot', 'social', 'Pinterest'],
    ['redditbot', 'social', 'Reddit'],
    ['Embedly', 'social', 'Embedly'],
    ['SeznamBot', 'search', 'Seznam'],
    ['Naver Yeti', 'search', 'Naver'],
    ['Sogou', 'search', 'Sogou'],
    ['360Spider', 'search', 'Qihoo 360'],
    ['PetalBot', 'ai_search', 'Huawei'],
    ['Qwantbot', 'search', 'Qwant'],
    ['Exabot', 'search', 'Exalead'],
    ['MojeekBot', 'search', 'Mojeek'],
    ['AhrefsBot', 'seo_tool', 'Ahrefs'],
    ['SemrushBot', 'seo_tool', 'Semrush'],
    ['MJ12bot', 'seo_tool', 'Majestic'],
    ['DotBot', 'seo_tool', 'Moz'],
    ['Screaming Frog SEO Spider', 'seo_tool', 'Screaming Frog'],
    ['Lighthouse', 'monitoring', 'Google'],
  ])('files %s under %s, run by %s', (name, category, operator) => {
    const bot = OWN_BOTS.find((own) => own.name === name)!;
    expect(classifyBot(`Mozilla/5.0 (compatible; ${bot.token}/1.0)`)).toEqual({ name, category, operator });
  });

  it('checks our specific tokens before their family name', () => {
    for (const [i, bot] of OWN_BOTS.entries()) expect(OWN_BOTS.slice(0, i).find((earlier) => bot.token.includes(earlier.token))).toBeUndefined();
  });

  it('recognises every sample User-Agent of crawler-user-agents as a bot', () => {
    const missed = crawlerUserAgents.flatMap((entry) => entry.instances).filter((userAgent) => classifyBot(userAgent) === UNKNOWN_BOT);
    expect(missed).toEqual([]);
  });

  it('recognises every ai.robots.txt agent by its name, in the category its function says, unless our table names it first', () => {
    const firstByName = new Map<string, { function: string }>();
    for (const [name, entry] of Object.entries(aiRobots)) if (!firstByName.has(name.toLowerCase())) firstByName.set(name.toLowerCase(), entry);
    for (const name of Object.keys(aiRobots)) {
      const identity = classifyBot(`Mozilla/5.0 (compatible; ${name})`);
      const own = OWN_BOTS.find((bot) => name.toLowerCase().includes(bot.token));
      if (own !== undefined) expect(identity.name).toBe(own.name);
      else expect(identity).toEqual(expect.objectContaining({ name: expect.stringMatching(new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`, 'i')), category: aiCategoryOfFunction(firstByName.get(name.toLowerCase())!.function) }));
    }
  });

  it('gives every bot a category of the list and an operator that is a clean name', () => {
    for (const bot of botCatalog().bots) {
      expect(BOT_CATEGORIES).toContain(bot.category);
      expect(bot.operator).toMatch(/^[\p{L}\p{N}][\p{L}\p{N} .&-]{0,39}$/u);
    }
  });

  it('answers other for 100 KB of garbage', () => {
    const garbage = Array.from({ length: 100 * 1024 }, (_, i) => String.fromCharCode([0x01, 0x1f, 0x7f, 0x2603, 0xfffd, 0x20, 0x28, 0x29][(i * 7919) % 8]!)).join('');
    expect(classifyBot(garbage)).toEqual(UNKNOWN_BOT);
    expect(classifyBot(garbage.slice(0, 300))).toEqual(UNKNOWN_BOT);
  });

  it('reads only the first CLASSIFIED_USER_AGENT_LENGTH characters of a huge User-Agent', () => {
    const padding = 'x'.repeat(100 * 1024);
    expect(classifyBot(`${padding} Googlebot/2.1`)).toEqual(UNKNOWN_BOT);
    expect(classifyBot(`Googlebot/2.1 ${padding}`).name).toBe('Googlebot');
    expect(CLASSIFIED_USER_AGENT_LENGTH).toBeLessThan(padding.length);
  });

  it('answers hostile 100 KB User-Agents in bounded time: no pattern backtracks catastrophically', () => {
    // Shapes that make a backtracking pattern explode: repeated prefixes of the lists' regular-expression patterns, and long runs without a match.
    const hostile = ['ContextualBot', 'Current ', 'Spider ', 'BlogTraffic/1.', '(sistrix ', 'a', ' ', '/'].map((unit) => unit.repeat(Math.ceil((100 * 1024) / unit.length)));
    const classify = createBotClassifier();
    const started = process.hrtime.bigint();
    for (let i = 0; i < 100; i++) for (const userAgent of hostile) expect(classify(userAgent)).toEqual(expect.objectContaining({ operator: expect.any(String) }));
    // About 0.1 s on a laptop; catastrophic backtracking would take hours, so the bound only separates the two.
    expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(10);
  });

  it('answers the same identity object for a cached User-Agent', () => {
    const classify = createBotClassifier({ cacheSize: 2 });
    const userAgent = 'Mozilla/5.0 (compatible; Googlebot/2.1)';
    expect(classify(userAgent)).toBe(classify(userAgent));
  });
});
