import type { BotRequestRecordedPayload, RecordedBotRequest } from '@bpc/events';

/** The n-th of a varied run of recorded bot requests: titles and URLs with quotes, backslashes, accents, CJK, emoji and U+2028; hits and misses; null and set snapshot ages. */
export function botRequestPayload(n: number): BotRequestRecordedPayload {
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
  };
}

/** `botRequestPayload(n)` as the edge hands it to its recorder: the time it was served in milliseconds. */
export function recordedBotRequest(n: number): RecordedBotRequest {
  const { servedAt, ...rest } = botRequestPayload(n);
  return { ...rest, servedAtMs: Date.parse(servedAt) };
}
