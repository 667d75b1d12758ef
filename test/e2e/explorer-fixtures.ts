import { BOT_REQUEST_RECORDED, BotRequestRecorded, BotRequestRecordedPayload, envelope, TOPICS } from '@bpc/events';
import type { RunningApps } from '@bpc/platform';
import { jsonOf, TEST_INTERNAL_KEY } from '@bpc/testing';

/** Shared helpers of the explorer e2e suites (not a suite itself). */
export const adminHeaders = { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' };

export async function issueToken(api: string, body: Record<string, unknown>): Promise<{ tokenId: string; token: string }> {
  const response = await fetch(`${api}/internal/admin/tokens`, { method: 'POST', headers: adminHeaders, body: JSON.stringify(body) });
  if (response.status !== 201) throw new Error(`issue token: ${response.status} ${await response.text()}`);
  return jsonOf(response);
}

let seq = 0;
export function botRequest(websiteId: string, servedAt: Date, overrides: Partial<BotRequestRecordedPayload> = {}): BotRequestRecorded {
  seq += 1;
  const requestId = overrides.requestId ?? `req-${websiteId}-${seq}`;
  return envelope(
    BOT_REQUEST_RECORDED,
    1,
    {
      websiteId,
      host: 'www.example.com',
      url: 'https://www.example.com/',
      pageTitle: 'Home',
      statusCode: 200,
      botName: 'Googlebot',
      userAgent: 'Googlebot/2.1',
      dimensionId: 1,
      dimensionName: 'desktop',
      cacheStatus: 'hit',
      serveTimeMs: 20,
      snapshotAgeS: 100,
      bytes: 1000,
      servedAt: servedAt.toISOString(),
      requestId,
      ...overrides,
    },
    { id: `ev-${requestId}`, occurredAt: servedAt, key: websiteId },
  );
}

/** Appends events and waits until ClickHouse holds `expectedRows` rows for the website. */
export async function recordAndWait(running: RunningApps, events: BotRequestRecorded[], websiteId: string, expectedRows: number): Promise<void> {
  await running.runtime.ports.eventLog!.append(TOPICS.botRequests, events);
  const deadline = Date.now() + 20_000;
  for (;;) {
    const [{ n }] = await running.runtime.ports.explorerStore!.query<{ n: number }>('SELECT count() AS n FROM bot_requests FINAL WHERE website = {w:String}', { w: websiteId });
    if (Number(n) === expectedRows) return;
    if (Date.now() > deadline) throw new Error(`projection holds ${n} rows for ${websiteId}, expected ${expectedRows}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * Writes `rows` bot_requests rows for `websiteId` straight into the explorer store (no events): Googlebot hits of
 * 5,000 pages on www.example.com, the newest at `newestMs` and one every 5 ms before it, request and event ids `bulk-<n>`.
 */
export async function insertBulkBotRequests(running: RunningApps, websiteId: string, rows: number, newestMs: number): Promise<void> {
  await running.runtime.ports.explorerStore!.command(
    `INSERT INTO bot_requests (website, host, url, page_title, status_code, bot_name, user_agent, dimension_id, dimension_name, cache_status, serve_time_ms, snapshot_age_s, bytes, ts, request_id, event_id)
     SELECT {website:String}, 'www.example.com', concat('https://www.example.com/p/', toString(number % 5000)), 'T', 200, 'Googlebot', 'UA', 1, 'desktop', 'hit', number % 1000, NULL, 1000,
            fromUnixTimestamp64Milli(toInt64({base:Int64}) - toInt64(number * 5)), concat('bulk-', toString(number)), concat('bulk-', toString(number))
     FROM numbers({rows:UInt64})`,
    { website: websiteId, base: newestMs, rows },
  );
}
