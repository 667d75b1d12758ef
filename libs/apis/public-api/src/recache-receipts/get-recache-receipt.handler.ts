import { setTimeout as sleep } from 'node:timers/promises';
import { Inject } from '@nestjs/common';
import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { receiptIdMintedAt } from '@bpc/cache-operations';
import type { AppConfig } from '@bpc/config';
import { AppError, Clock, HostCatalog, queueEntryKey, storeUnavailable, validationError } from '@bpc/domain';
import { EXPLORER_STORE, ExplorerStore, QueryParams } from '@bpc/explorer-store';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { QUEUE_STORE, QueueStore } from '@bpc/queue-store';
import { GetRecacheReceipt, RecacheReceiptView } from './get-recache-receipt.query';
import { ReceiptEntryRow, receiptPageSql, ReceiptSqlInput, receiptTotalsSql, ReceiptTotalsRow } from './receipt-sql';
import { receiptDone, receiptEntryView, receiptOrigin, receiptTotals } from './receipt-view';

/**
 * A receipt minted this recently may not be projected yet (the projection
 * writes within about half a second, several seconds on a loaded machine):
 * the read waits for it until this long after its minting before answering
 * 404, instead of a client seeing 404 for the id it was just given. It reads
 * again after `firstPollMs`, doubling up to `maxPollMs`, so an id that will
 * never appear costs a dozen reads, not one per 100 ms.
 */
export const FRESH_RECEIPT = { mintedWithinMs: 15_000, firstPollMs: 50, maxPollMs: 1_000 } as const;

/**
 * A website's recache receipt: the receipted requests (`recache_receipts`)
 * with the render history (`render_outcomes`) in ClickHouse, and the queue
 * store's live claims for `rendering`. Receipts are the host's: another
 * host's receipt, or an unknown id, is 404 RECEIPT_NOT_FOUND.
 */
@QueryHandler(GetRecacheReceipt)
export class GetRecacheReceiptHandler implements IQueryHandler<GetRecacheReceipt, RecacheReceiptView> {
  constructor(
    @Inject(EXPLORER_STORE) private readonly explorer: ExplorerStore,
    @Inject(QUEUE_STORE) private readonly queue: QueueStore,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
    private readonly hosts: HostCatalog,
  ) {}

  async execute({ websiteId, receiptId, page, perPage, state }: GetRecacheReceipt): Promise<RecacheReceiptView> {
    // The guard has refused unknown websites: one missing here is a configuration bug (500).
    const hostId = this.config.websites.find((w) => w.id === websiteId)!.host_id;
    const input = await this.sqlInput(receiptId, hostId);
    const totalsRows = await this.totalsOf(input);
    if (totalsRows.length === 0) throw new AppError('RECEIPT_NOT_FOUND', `no recache receipt ${receiptId} on website ${websiteId}`);
    const totals = receiptTotals(totalsRows);
    const total = state ? totals[state] : totals.entries;
    const totalPages = Math.ceil(total / perPage);
    if (page > 1 && page > totalPages) throw validationError('page', `page ${page} is past the last page (${totalPages})`);
    const rows = await this.query<ReceiptEntryRow>(receiptPageSql(input, state, page, perPage));
    const dimensions = this.hosts.host(hostId)?.dimensions ?? [];
    const dimensionName = (id: number) => dimensions.find((d) => d.id === id)?.name ?? String(id);
    return {
      receiptId,
      ...receiptOrigin(totalsRows),
      done: receiptDone(totals),
      totals,
      data: rows.map((row) => receiptEntryView(row, dimensionName)),
      meta: { page, perPage, total, totalPages },
    };
  }

  private async sqlInput(receiptId: string, hostId: number): Promise<ReceiptSqlInput> {
    const claimed = await this.queue.claimedKeys(hostId, this.clock.now()).catch((error: Error) => {
      throw storeUnavailable('queue store unavailable', error);
    });
    return { receiptId, hostId, claimed: claimed.map((k) => queueEntryKey(k.dimensionId, k.url)) };
  }

  /** The receipt's totals; for a receipt minted moments ago and not projected yet, once it is (or its window has passed). */
  private async totalsOf(input: ReceiptSqlInput): Promise<ReceiptTotalsRow[]> {
    const giveUpAt = Date.now() + freshWaitMs(receiptIdMintedAt(input.receiptId), this.clock.now());
    for (let pollMs: number = FRESH_RECEIPT.firstPollMs; ; pollMs = Math.min(pollMs * 2, FRESH_RECEIPT.maxPollMs)) {
      const rows = await this.query<ReceiptTotalsRow>(receiptTotalsSql(input));
      const left = giveUpAt - Date.now();
      if (rows.length > 0 || left <= 0) return rows;
      await sleep(Math.min(pollMs, left));
    }
  }

  private async query<T>({ sql, params }: { sql: string; params: QueryParams }): Promise<T[]> {
    try {
      return await this.explorer.query<T>(sql, params);
    } catch (error) {
      throw storeUnavailable('explorer store unavailable', error);
    }
  }
}

/**
 * How long a read waits for a receipt minted at `mintedAt` (undefined: not an
 * id the service mints) to be projected: until `mintedWithinMs` after its
 * minting. An id minted up to that long in the future (another replica's
 * clock ahead of this one) waits the whole window; older ids wait not at all.
 */
export function freshWaitMs(mintedAt: number | undefined, nowMs: number): number {
  if (mintedAt === undefined) return 0;
  const age = nowMs - mintedAt;
  if (age < -FRESH_RECEIPT.mintedWithinMs || age >= FRESH_RECEIPT.mintedWithinMs) return 0;
  return FRESH_RECEIPT.mintedWithinMs - Math.max(age, 0);
}
