/**
 * Known crawlers, most specific first: the first token found in the
 * User-Agent (case-insensitive) names the bot. Tokens are the ones each
 * operator documents for its crawler; several products share a family name
 * (`Googlebot-Image` is still recorded as `Googlebot-Image`, not `Googlebot`).
 */
export const KNOWN_BOTS: readonly { readonly name: string; readonly token: string }[] = [
  { name: 'Googlebot-Image', token: 'googlebot-image' },
  { name: 'Googlebot-News', token: 'googlebot-news' },
  { name: 'Googlebot-Video', token: 'googlebot-video' },
  { name: 'Google-InspectionTool', token: 'google-inspectiontool' },
  { name: 'Storebot-Google', token: 'storebot-google' },
  { name: 'AdsBot-Google', token: 'adsbot-google' },
  { name: 'Mediapartners-Google', token: 'mediapartners-google' },
  { name: 'Google-Extended', token: 'google-extended' },
  { name: 'Googlebot', token: 'googlebot' },
  { name: 'Bingbot', token: 'bingbot' },
  { name: 'BingPreview', token: 'bingpreview' },
  { name: 'AdIdxBot', token: 'adidxbot' },
  { name: 'YandexBot', token: 'yandexbot' },
  { name: 'YandexMobileBot', token: 'yandexmobilebot' },
  { name: 'Yandex', token: 'yandex.com/bots' },
  { name: 'Baiduspider', token: 'baiduspider' },
  { name: 'DuckDuckBot', token: 'duckduckbot' },
  { name: 'DuckAssistBot', token: 'duckassistbot' },
  { name: 'Applebot-Extended', token: 'applebot-extended' },
  { name: 'Applebot', token: 'applebot' },
  { name: 'GPTBot', token: 'gptbot' },
  { name: 'ChatGPT-User', token: 'chatgpt-user' },
  { name: 'OAI-SearchBot', token: 'oai-searchbot' },
  { name: 'ClaudeBot', token: 'claudebot' },
  { name: 'Claude-User', token: 'claude-user' },
  { name: 'Claude-SearchBot', token: 'claude-searchbot' },
  { name: 'anthropic-ai', token: 'anthropic-ai' },
  { name: 'PerplexityBot', token: 'perplexitybot' },
  { name: 'Perplexity-User', token: 'perplexity-user' },
  { name: 'CCBot', token: 'ccbot' },
  { name: 'Bytespider', token: 'bytespider' },
  { name: 'Amazonbot', token: 'amazonbot' },
  { name: 'meta-externalagent', token: 'meta-externalagent' },
  { name: 'facebookexternalhit', token: 'facebookexternalhit' },
  { name: 'Facebot', token: 'facebot' },
  // Before Twitterbot: Telegram's crawler says "TelegramBot (like TwitterBot)".
  { name: 'TelegramBot', token: 'telegrambot' },
  { name: 'Twitterbot', token: 'twitterbot' },
  { name: 'LinkedInBot', token: 'linkedinbot' },
  { name: 'Slackbot', token: 'slackbot' },
  { name: 'Discordbot', token: 'discordbot' },
  { name: 'WhatsApp', token: 'whatsapp' },
  { name: 'Pinterestbot', token: 'pinterestbot' },
  { name: 'redditbot', token: 'redditbot' },
  { name: 'Embedly', token: 'embedly' },
  { name: 'SeznamBot', token: 'seznambot' },
  { name: 'Naver Yeti', token: 'yeti/' },
  { name: 'Sogou', token: 'sogou' },
  { name: '360Spider', token: '360spider' },
  { name: 'PetalBot', token: 'petalbot' },
  { name: 'Qwantbot', token: 'qwantbot' },
  { name: 'Exabot', token: 'exabot' },
  { name: 'MojeekBot', token: 'mojeekbot' },
  { name: 'AhrefsBot', token: 'ahrefsbot' },
  { name: 'SemrushBot', token: 'semrushbot' },
  { name: 'MJ12bot', token: 'mj12bot' },
  { name: 'DotBot', token: 'dotbot' },
  { name: 'Screaming Frog SEO Spider', token: 'screaming frog' },
  { name: 'Lighthouse', token: 'chrome-lighthouse' },
];

/** Recorded for a User-Agent that names no known crawler. */
export const OTHER_BOT = 'other';

/** The crawler a User-Agent belongs to, or `other`. Pure: same input, same name. */
export function botNameOf(userAgent: string): string {
  const ua = userAgent.toLowerCase();
  return KNOWN_BOTS.find((bot) => ua.includes(bot.token))?.name ?? OTHER_BOT;
}
