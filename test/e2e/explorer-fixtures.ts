import { BOT_REQUEST_RECORDED, BotRequestRecorded, BotRequestRecordedPayload, envelope, TOPICS } from '@bpc/events';
import type { RunningApps } from '@bpc/composition';
import { jsonOf, TEST_INTERNAL_KEY, until } from '@bpc/testing';

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

/** Appends events and waits until ClickHouse holds `expectedRows` rows for the website (a cluster's projector may still be joining its group on a busy machine). */
export async function recordAndWait(running: RunningApps, events: BotRequestRecorded[], websiteId: string, expectedRows: number): Promise<void> {
  await running.runtime.ports.eventLog!.append(TOPICS.botRequests, events);
  const rows = async () => {
    const [{ n }] = await running.runtime.ports.explorerStore!.query<{ n: number }>('SELECT count() AS n FROM bot_requests FINAL WHERE website = {w:String}', { w: websiteId });
    return Number(n);
  };
  await until(rows, (n) => n === expectedRows, { timeoutMs: 60_000, intervalMs: 50, what: `${expectedRows} rows projected for ${websiteId}` });
}
