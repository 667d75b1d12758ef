import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { newReceiptId } from '@bpc/cache-operations';
import { HostCatalog } from '@bpc/domain';
import { newQueueEvent, RECACHE_REQUESTED } from '@bpc/events';
import { ChdbExecutor, EXPLORER_DDL_DIR, type ExplorerStore, type InsertBatch, type QueryParams, type RawFormat } from '@bpc/explorer-store';
import { receiptRows } from '@bpc/projections';
import { MemoryQueueStore } from '@bpc/queue-store';
import { gate, type Gate, TestClock, testConfig } from '@bpc/testing';
import { FRESH_RECEIPT, GetRecacheReceiptHandler } from './get-recache-receipt.handler';
import { GetRecacheReceipt } from './get-recache-receipt.query';

const T = Date.parse('2026-11-28T02:00:00Z');

/** The explorer store, noting how many rows each query answered (so a spec sees a read that found nothing yet). */
class AnswersNoted implements ExplorerStore {
  readonly answers: number[] = [];
  firstAnswer: Gate = gate();

  constructor(private readonly store: ExplorerStore) {}

  async query<T = Record<string, unknown>>(sql: string, params?: QueryParams): Promise<T[]> {
    const rows = await this.store.query<T>(sql, params);
    this.answers.push(rows.length);
    this.firstAnswer.open();
    return rows;
  }

  migrate = () => this.store.migrate();
  stream = <T>(sql: string, params?: QueryParams) => this.store.stream<T>(sql, params);
  streamRaw = (sql: string, params: QueryParams | undefined, format: RawFormat) => this.store.streamRaw(sql, params, format);
  writeFile = (sql: string, params: QueryParams | undefined, format: RawFormat, file: string) => this.store.writeFile(sql, params, format, file);
  command = (sql: string, params?: QueryParams) => this.store.command(sql, params);
  readonly inProcess = true;
  insert = (batch: InsertBatch) => this.store.insert(batch);
  check = () => this.store.check();
  close = () => this.store.close();
}

/**
 * The receipt read's own rule for receipts it may not have projected yet:
 * an id minted moments ago (its time is in it) is waited for a little before
 * answering RECEIPT_NOT_FOUND; any other unknown id is answered at once.
 * (What a receipt reports: recache-receipts.int-spec.ts.)
 */
describe('GetRecacheReceipt: a receipt not projected yet (chDB)', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-receipt-wait-'));
  const config = testConfig('standalone', { websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }] });
  const clock = new TestClock(T);
  let chdb: ChdbExecutor;
  let explorer: AnswersNoted;
  let handler: GetRecacheReceiptHandler;
  let token = 0;

  beforeAll(async () => {
    chdb = new ChdbExecutor({ path: path.join(dir, 'chdb'), ddlDir: EXPLORER_DDL_DIR });
    await chdb.migrate();
    // The engine's first reads of these tables are slow (cold): warm them up, so the wait below is spent waiting, not starting.
    const warm = new GetRecacheReceiptHandler(chdb, new MemoryQueueStore(), config, clock, new HostCatalog(config.hosts));
    await projected(newReceiptId(T - 3_600_000), T - 3_600_000);
    await warm.execute(new GetRecacheReceipt('demo', newReceiptId(T - 3_600_000), 1, 100, undefined)).catch(() => undefined);
  }, 60_000);

  beforeEach(() => {
    explorer = new AnswersNoted(chdb);
    handler = new GetRecacheReceiptHandler(explorer, new MemoryQueueStore(), config, clock, new HostCatalog(config.hosts));
  });

  afterAll(async () => {
    await chdb?.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(config.data_dir, { recursive: true, force: true });
  });

  /** The receipt projection writes the request's rows, as it does about half a second after the daemon answered. */
  async function projected(receiptId: string, at: number): Promise<void> {
    const event = newQueueEvent(RECACHE_REQUESTED, { hostId: 1, urls: ['https://www.example.com/a'], dimensionIds: [1, 2], priority: 'normal', source: 'public-api', receiptId }, '1', at);
    const { table, rows } = receiptRows(event)!;
    await chdb.insert({ table, rows, token: `r-${token++}` });
  }

  const read = (receiptId: string) => handler.execute(new GetRecacheReceipt('demo', receiptId, 1, 100, undefined));

  it('waits for a receipt minted moments ago that is not projected yet, and answers it once it is', async () => {
    const receiptId = newReceiptId(clock.now() - 1_000);
    const answer = read(receiptId);
    await explorer.firstAnswer.opened;
    expect(explorer.answers).toEqual([0]);

    await projected(receiptId, clock.now() - 1_000);
    expect(await answer).toMatchObject({ receiptId, totals: { entries: 2, queued: 2 } });
  });

  it('answers RECEIPT_NOT_FOUND at once, reading once, for an id minted long ago or not minted by the daemon', async () => {
    await expect(read(newReceiptId(clock.now() - FRESH_RECEIPT.mintedWithinMs - 1))).rejects.toMatchObject({ code: 'RECEIPT_NOT_FOUND' });
    await expect(read('0193b0f4-6d2a-4c1e-9f3b-2a4c6e8d0f12')).rejects.toMatchObject({ code: 'RECEIPT_NOT_FOUND' });
    expect(explorer.answers).toEqual([0, 0]);
  });

  it(`answers RECEIPT_NOT_FOUND for a fresh id never projected once ${FRESH_RECEIPT.mintedWithinMs} ms have passed since its minting, reading again meanwhile`, async () => {
    const started = Date.now();
    // Minted 13 s ago on the app's clock: 2 s of its window are left.
    await expect(read(newReceiptId(clock.now() - FRESH_RECEIPT.mintedWithinMs + 2_000))).rejects.toMatchObject({ code: 'RECEIPT_NOT_FOUND' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(explorer.answers.length).toBeGreaterThan(1);
    expect(new Set(explorer.answers)).toEqual(new Set([0]));
  });
});
