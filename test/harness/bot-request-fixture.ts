import type { CurrentBotRequestRecordedPayload, RecordedBotRequest } from '@bpc/events';

/** The n-th of a varied run of recorded bot requests: titles and URLs with quotes, backslashes, accents, CJK, emoji and U+2028; hits and misses; null and set snapshot ages. */
export function botRequestPayload(n: number): CurrentBotRequestRecordedPayload {
  return {
    websiteId: `w${n % 2}`,
    host: 'www.example.com',
    url: `https://www.example.com/p${n}?q=${'ü'.repeat(n % 3)}`,
    pageTitle: ['', 'Título «quoted» "page"\\', '価格 😀\u2028'][n % 3],
    statusCode: 200,
    botName: 'Googlebot',
    userAgent: 'Mozilla/5.0 (compatible; Googlebot/2.1)',
    dimensionId: 1,
    dimensionName: 'desktop',
    cacheStatus: n % 2 ? 'hit' : 'miss',
    serveTimeMs: n,
    snapshotAgeS: n % 2 ? n : null,
    bytes: 100 + n,
    servedAt: new Date(Date.UTC(2026, 10, 1) + n * 1000).toISOString(),
    requestId: `r${n}`,
    format: n % 3 ? 'html' : 'markdown',
    botCategory: n % 2 ? 'search' : 'ai_assistant',
    botOperator: n % 2 ? 'Google' : 'OpenAI',
    verified: (['yes', 'no', 'unknown'] as const)[n % 3],
    robotsAllowed: (['yes', 'no', 'unknown'] as const)[(n + 1) % 3],
  };
}

/** `botRequestPayload(n)` as the edge hands it to its recorder: the time it was served in milliseconds. */
export function recordedBotRequest(n: number): RecordedBotRequest {
  const { servedAt, ...rest } = botRequestPayload(n);
  return { ...rest, servedAtMs: Date.parse(servedAt) };
}

/** Strings JSON must escape or encode with care: quotes, backslashes, controls, separators, lone surrogates, astral characters. */
export const HOSTILE_TEXTS = ['', '"', '\\', '\\"', '\n\r\t\b\f', '\u0000\u001f\u007f', '\u2028\u2029', '\ud800', 'a\udfffb', '🤖 Бот', 'é', 'x'.repeat(64), 'y'.repeat(65), '</script>', 'Pricing — "Example"'];

/** The i-th of a run of recorded bot requests whose every text field is `text(i + k)` (by default the hostile texts in turn), numbers of every kind. */
export function hostileBotRequestPayload(i: number, text: (n: number) => string = (n) => HOSTILE_TEXTS[n % HOSTILE_TEXTS.length]): CurrentBotRequestRecordedPayload {
  return {
    websiteId: text(i),
    host: text(i + 1),
    url: `https://www.example.com/${text(i + 2)}`,
    pageTitle: text(i + 3),
    statusCode: [200, 404, 504][i % 3],
    botName: text(i + 4),
    userAgent: text(i + 5),
    dimensionId: i % 4,
    dimensionName: text(i + 6),
    cacheStatus: (['hit', 'miss', 'stale', 'bypass'] as const)[i % 4],
    serveTimeMs: i * 7,
    snapshotAgeS: i % 5 === 0 ? null : i * 31,
    bytes: i * 1_013,
    servedAt: new Date(1_763_740_000_000 + i).toISOString(),
    requestId: text(i + 7),
    format: i % 2 ? 'html' : 'markdown',
    botCategory: 'other',
    botOperator: text(i + 8),
    verified: 'unknown',
    robotsAllowed: 'no',
  };
}
