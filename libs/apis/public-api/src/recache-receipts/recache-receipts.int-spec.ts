import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newReceiptId } from '@bpc/cache-operations';
import { AppError, HostCatalog } from '@bpc/domain';
import { newQueueEvent, QUEUE_PURGED, RECACHE_REQUESTED, type RecacheRequestedPayload, type RenderOutcome } from '@bpc/events';
import { ChdbExecutor, EXPLORER_DDL_DIR, RECACHE_RECEIPTS_TABLE } from '@bpc/explorer-store';
import { applyQueueEvent, receiptRows } from '@bpc/projections';
import { MemoryQueueStore, RedisQueueStore } from '@bpc/queue-store';
import { freePort, TestClock, testConfig } from '@bpc/testing';
import { FRESH_RECEIPT, GetRecacheReceiptHandler } from './get-recache-receipt.handler';
import { GetRecacheReceipt } from './get-recache-receipt.query';
import type { ReceiptState } from './receipt-sql';

const T = Date.parse('2026-11-28T02:00:00Z');
const page = (p: string) => `https://www.example.com/${p}`;

/**
 * Receipts read from real tables (chDB): receipt rows as the projection
 * writes them from RecacheRequested events, render history rows inserted as
 * the render projection would, and live claims from a queue store fed the
 * same events.
 */
describe('recache receipts (chDB, memory queue store)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-receipts-'));
  const config = testConfig('standalone', { websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }, { id: 'shop', host_id: 2, account_id: 'acme' }] });
  const clock = new TestClock(T);
  let explorer: ChdbExecutor;
  let queue: MemoryQueueStore;
  let handler: GetRecacheReceiptHandler;
  let offset = 0;
  let token = 0;

  beforeAll(async () => {
    explorer = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await explorer.migrate();
  }, 60_000);

  beforeEach(() => {
    queue = new MemoryQueueStore();
    handler = new GetRecacheReceiptHandler(explorer, queue, config, clock, new HostCatalog(config.hosts));
  });

  afterAll(async () => {
    await explorer?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(config.data_dir, { recursive: true, force: true });
  });

  /** Records a request as the daemon does: queued in the store, its receipt rows in ClickHouse. */
  async function request(at: number, urls: string[], over: Partial<RecacheRequestedPayload> = {}) {
    const receiptId = over.receiptId ?? newReceiptId(at);
    const event = newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls, dimensionIds: [1, 2], priority: 'normal', source: 'public-api', receiptId, ...over }, String(over.hostId ?? 1), at);
    await applyQueueEvent(queue, event, { stream: 'q:0', offset: String(offset++), eventId: event.id });
    await explorer.insert({ table: RECACHE_RECEIPTS_TABLE, rows: receiptRows(event)?.rows ?? [], token: `r-${token++}` });
    return { receiptId, entryId: event.id };
  }

  async function rendered(url: string, dimensionId: number, outcome: RenderOutcome, endedAt: number, renderMs = 500, extra: { reason?: string; attempt?: number; trigger?: string } = {}) {
    const row = {
      host_id: 1, url, dimension_id: dimensionId, mode: 'render', trigger: extra.trigger ?? 'recache_normal', outcome, reason: extra.reason ?? '',
      status_code: outcome === 'stored' ? 200 : 0, render_ms: renderMs, bytes: 1000, attempt: extra.attempt ?? 1, entry_id: '', ts: new Date(endedAt).toISOString(), event_id: `ev-${token}`,
    };
    await explorer.insert({ table: 'render_outcomes', rows: [row], token: `o-${token++}` });
  }

  /** A purge as recorded: applied to the queue store (unless it is one from before the requests), its row in ClickHouse. */
  async function purged(at: number, priorities: ('high' | 'normal' | 'autorecache')[], { earlier = false } = {}) {
    const event = newQueueEvent(QUEUE_PURGED, { hostId: 1, priorities }, '1', at);
    if (!earlier) await applyQueueEvent(queue, event, { stream: 'q:0', offset: String(offset++), eventId: event.id });
    const { table, rows } = receiptRows(event)!;
    await explorer.insert({ table, rows, token: `p-${token++}` });
  }

  const read = (receiptId: string, state?: ReceiptState, pageNo = 1, perPage = 100, website = 'demo') => handler.execute(new GetRecacheReceipt(website, receiptId, pageNo, perPage, state));

  it('follows each URL × dimension from queued through rendering to stored, kept or failed', async () => {
    const { receiptId } = await request(T, [page('a'), page('b')]);
    let receipt = await read(receiptId);
    expect(receipt).toMatchObject({ receiptId, createdAt: new Date(T).toISOString(), source: 'api', done: false, totals: { entries: 4, queued: 4, rendering: 0, stored: 0, kept: 0, failed: 0 } });
    expect(receipt.data.map((e) => [e.url, e.dimension, e.state])).toEqual([
      [page('a'), 'desktop', 'queued'],
      [page('a'), 'mobile', 'queued'],
      [page('b'), 'desktop', 'queued'],
      [page('b'), 'mobile', 'queued'],
    ]);

    const claimed = await queue.claim({ now: T + 1_000, limit: 2, leaseMs: 60_000 });
    expect(claimed).toHaveLength(2);
    clock.advance(1_000);
    receipt = await read(receiptId);
    expect(receipt.totals).toMatchObject({ queued: 2, rendering: 2 });

    await rendered(page('a'), 1, 'stored', T + 3_000);
    await rendered(page('a'), 2, 'kept_smaller', T + 3_000, 500, { reason: 'render is 10% of the last good one' });
    await rendered(page('b'), 1, 'retry_scheduled', T + 3_000, 500, { reason: 'timeout after 60000 ms' });
    await rendered(page('b'), 1, 'gave_up', T + 9_000, 500, { reason: 'timeout after 60000 ms', attempt: 3 });
    await rendered(page('b'), 2, 'retry_scheduled', T + 4_000, 500, { reason: 'HTTP 503', attempt: 1 });
    receipt = await read(receiptId);
    expect(receipt.totals).toEqual({ entries: 4, queued: 1, rendering: 0, stored: 1, kept: 1, failed: 1 });
    expect(receipt.done).toBe(false);
    expect(receipt.data).toEqual([
      { url: page('a'), dimensionId: 1, dimension: 'desktop', state: 'stored', outcome: 'stored', reason: '', attempt: 1, updatedAt: new Date(T + 3_000).toISOString() },
      { url: page('a'), dimensionId: 2, dimension: 'mobile', state: 'kept', outcome: 'kept_smaller', reason: 'render is 10% of the last good one', attempt: 1, updatedAt: new Date(T + 3_000).toISOString() },
      { url: page('b'), dimensionId: 1, dimension: 'desktop', state: 'failed', outcome: 'gave_up', reason: 'timeout after 60000 ms', attempt: 3, updatedAt: new Date(T + 9_000).toISOString() },
      // Waiting for its next attempt: still queued, with what went wrong so far.
      { url: page('b'), dimensionId: 2, dimension: 'mobile', state: 'queued', outcome: 'retry_scheduled', reason: 'HTTP 503', attempt: 1, updatedAt: new Date(T + 4_000).toISOString() },
    ]);

    await rendered(page('b'), 2, 'stored', T + 20_000, 500, { attempt: 2 });
    receipt = await read(receiptId);
    expect(receipt).toMatchObject({ done: true, totals: { queued: 0, rendering: 0, stored: 2, kept: 1, failed: 1 } });
  }, 60_000);

  it('counts only renders that began after the request; an entry already queued (deduplicated) counts once it renders', async () => {
    const at = T + 100_000;
    // Queued by an earlier request without a receipt; the receipted request keeps the one entry.
    await request(at - 50_000, [page('c')], { receiptId: undefined, source: 'daemon-api' });
    const { receiptId } = await request(at, [page('c')]);
    expect((await queue.counts(at)).get(1)?.normal.total).toBe(2);
    // A render that was running when the request came (began before it) does not count, nor does an edge miss.
    await rendered(page('c'), 1, 'stored', at + 200, 1_000);
    await rendered(page('c'), 2, 'stored', at + 5_000, 100, { trigger: 'edge_miss' });
    expect((await read(receiptId)).totals).toMatchObject({ queued: 2, stored: 0 });
    await rendered(page('c'), 1, 'stored', at + 6_000, 1_000);
    await rendered(page('c'), 2, 'kept_blank', at + 6_000, 1_000, { reason: 'blank page' });
    // Later renders do not change how the receipt ended.
    await rendered(page('c'), 2, 'stored', at + 60_000, 1_000);
    const receipt = await read(receiptId);
    expect(receipt.totals).toEqual({ entries: 2, queued: 0, rendering: 0, stored: 1, kept: 1, failed: 0 });
    expect(receipt.done).toBe(true);
  }, 60_000);

  it('spreads one sitemap receipt over several requests, counting an entry named twice once', async () => {
    const at = T + 200_000;
    const receiptId = newReceiptId(at);
    await request(at, [page('s1'), page('s2')], { source: 'sitemap', receiptId, dimensionIds: [1] });
    await request(at + 10, [page('s2'), page('s3')], { source: 'sitemap', receiptId, dimensionIds: [1] });
    const receipt = await read(receiptId);
    expect(receipt).toMatchObject({ source: 'sitemap', createdAt: new Date(at).toISOString(), totals: { entries: 3, queued: 3 } });
    // The sitemap's entries are claimed with their trigger.
    expect((await queue.claim({ now: at + 20, limit: 10, leaseMs: 1_000 })).map((c) => c.trigger)).toEqual(['sitemap', 'sitemap', 'sitemap']);
  }, 60_000);

  it('pages entries and filters them by state', async () => {
    const at = T + 300_000;
    const urls = Array.from({ length: 5 }, (_, i) => page(`p${i}`));
    const { receiptId } = await request(at, urls, { dimensionIds: [1] });
    await rendered(urls[1], 1, 'stored', at + 2_000);
    await rendered(urls[3], 1, 'stored', at + 2_000);
    const second = await read(receiptId, undefined, 2, 2);
    expect(second.meta).toEqual({ page: 2, perPage: 2, total: 5, totalPages: 3 });
    expect(second.data.map((e) => e.url)).toEqual([urls[2], urls[3]]);
    const stored = await read(receiptId, 'stored', 1, 1);
    expect(stored.meta).toEqual({ page: 1, perPage: 1, total: 2, totalPages: 2 });
    expect(stored.data.map((e) => e.url)).toEqual([urls[1]]);
    await expect(read(receiptId, undefined, 4, 2)).rejects.toMatchObject({ code: 'VALIDATION_FAILED', field: 'page' });
  }, 60_000);

  it('ends entries a purge of their priority removed: failed, outcome purged; a render already running still counts', async () => {
    const at = T + 350_000;
    const { receiptId } = await request(at, [page('g1'), page('g2')], { dimensionIds: [1], priority: 'high' });
    // A purge before the request, or of another priority, changes nothing.
    await purged(at - 1_000, ['high'], { earlier: true });
    await purged(at + 1_000, ['normal']);
    expect((await read(receiptId)).totals).toMatchObject({ queued: 2, failed: 0 });
    await queue.claim({ now: at + 1_500, limit: 1, leaseMs: 60_000 });
    await purged(at + 2_000, ['high', 'normal']);
    const receipt = await read(receiptId);
    // g1 was claimed before the purge: it renders on (purges leave claims alone); g2 left the queue.
    expect(receipt.data).toEqual([
      { url: page('g1'), dimensionId: 1, dimension: 'desktop', state: 'rendering' },
      { url: page('g2'), dimensionId: 1, dimension: 'desktop', state: 'failed', outcome: 'purged', reason: 'removed from the queue by a purge', attempt: 0, updatedAt: new Date(at + 2_000).toISOString() },
    ]);
    await rendered(page('g1'), 1, 'stored', at + 4_000, 1_000, { trigger: 'recache_high' });
    expect(await read(receiptId)).toMatchObject({ done: true, totals: { stored: 1, failed: 1 } });
  }, 60_000);

  it('answers RECEIPT_NOT_FOUND for an unknown id and for another host’s receipt', async () => {
    const { receiptId } = await request(T + 400_000, [page('x')]);
    clock.advance(400_000 + FRESH_RECEIPT.mintedWithinMs);
    await expect(read(receiptId, undefined, 1, 100, 'shop')).rejects.toMatchObject({ code: 'RECEIPT_NOT_FOUND' });
    await expect(read('0193b0f4-6d2a-4c1e-9f3b-2a4c6e8d0f12')).rejects.toBeInstanceOf(AppError);
    await expect(read("nope' OR 1=1 --")).rejects.toMatchObject({ code: 'RECEIPT_NOT_FOUND' });
  }, 60_000);

  it('answers STORE_UNAVAILABLE without the store’s own error (its address) when the queue store is down; the cause is kept for the log', async () => {
    const { receiptId } = await request(T + 500_000, [page('down')]);
    const port = await freePort();
    const down = new RedisQueueStore({ url: `redis://127.0.0.1:${port}`, keyPrefix: 'down', reconnectMaxDelayMs: 200, commandTimeoutMs: 500 });
    try {
      const reading = new GetRecacheReceiptHandler(explorer, down, config, clock, new HostCatalog(config.hosts)).execute(new GetRecacheReceipt('demo', receiptId, 1, 100, undefined));
      const error = (await reading.then(() => undefined, (e: unknown) => e)) as AppError & { cause?: Error };
      expect(error).toMatchObject({ code: 'STORE_UNAVAILABLE', message: 'queue store unavailable' });
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain(String(port));
      expect(error.cause).toBeInstanceOf(Error);
    } finally {
      await down.close();
    }
  }, 60_000);
});
