import type { ExplorerStore } from '@bpc/explorer-store';

/**
 * Writes `rows` bot_requests rows for `websiteId` straight into the explorer store (no events): Googlebot hits of
 * 5,000 pages on www.example.com, the newest at `newestMs` and one every 5 ms before it, request and event ids `bulk-<n>`.
 */
export async function insertBulkBotRequests(store: ExplorerStore, websiteId: string, rows: number, newestMs: number): Promise<void> {
  await store.command(
    `INSERT INTO bot_requests (website, host, url, page_title, status_code, bot_name, user_agent, dimension_id, dimension_name, cache_status, serve_time_ms, snapshot_age_s, bytes, ts, request_id, event_id)
     SELECT {website:String}, 'www.example.com', concat('https://www.example.com/p/', toString(number % 5000)), 'T', 200, 'Googlebot', 'UA', 1, 'desktop', 'hit', number % 1000, NULL, 1000,
            fromUnixTimestamp64Milli(toInt64({base:Int64}) - toInt64(number * 5)), concat('bulk-', toString(number)), concat('bulk-', toString(number))
     FROM numbers({rows:UInt64})`,
    { website: websiteId, base: newestMs, rows },
  );
}
