import type { Receipt, ReceiptTotals } from '../api/types';

/** How often a receipt is read while some of its entries are queued or rendering. */
export const RECEIPT_POLL_MS = 2000;
/**
 * How long a receipt this page just started may answer 404: receipts are a
 * read model, and the recache's answer can come before it has the request.
 */
export const RECEIPT_GRACE_MS = 30_000;

/** Whether to read a receipt again: until it is done; after a 404 only while a receipt just started may still be on its way. */
export function receiptPollMs(state: { data?: Pick<Receipt, 'done' | 'totals'>; errorCode?: string }, waitingForIt: boolean): number | false {
  if (state.data && !state.errorCode) return receiptDone(state.data) ? false : RECEIPT_POLL_MS;
  if (state.errorCode) return state.errorCode === 'RECEIPT_NOT_FOUND' && waitingForIt ? RECEIPT_POLL_MS : false;
  return RECEIPT_POLL_MS;
}

/** Whether a receipt has settled: the API's `done`, else no entry queued or rendering. */
export function receiptDone(receipt: Pick<Receipt, 'done' | 'totals'>): boolean {
  if (typeof receipt.done === 'boolean') return receipt.done;
  return receipt.totals.queued + receipt.totals.rendering === 0;
}

/** Entries that reached an end (stored, kept the old page, failed), of all of them. */
export function settledCount(totals: ReceiptTotals): number {
  return totals.stored + totals.kept + totals.failed;
}

/** The totals in one line, in people's words. */
export function totalsSentence(totals: ReceiptTotals): string {
  const parts = [
    `${totals.stored} stored`,
    `${totals.kept} kept the old page`,
    `${totals.failed} failed`,
    `${totals.rendering} rendering`,
    `${totals.queued} queued`,
  ];
  return `${settledCount(totals)} of ${totals.entries} entries done: ${parts.join(', ')}.`;
}
