import { RECEIPT_STATES, type ReceiptEntryRow, type ReceiptState, type ReceiptTotalsRow } from './receipt-sql';
import type { ReceiptEntryView, RecacheReceiptView } from './get-recache-receipt.query';

const SOURCES: Record<string, RecacheReceiptView['source']> = { 'public-api': 'api', 'daemon-api': 'daemon', sitemap: 'sitemap' };

/** Entries per state, every state present, and their sum. */
export function receiptTotals(rows: readonly ReceiptTotalsRow[]): RecacheReceiptView['totals'] {
  const totals = { entries: 0, queued: 0, rendering: 0, stored: 0, kept: 0, failed: 0 } as Record<'entries' | ReceiptState, number>;
  for (const row of rows) {
    totals[row.state] += Number(row.entries);
    totals.entries += Number(row.entries);
  }
  return totals;
}

/** Done when nothing is left to render: no entry queued or rendering. */
export function receiptDone(totals: RecacheReceiptView['totals']): boolean {
  return totals.queued === 0 && totals.rendering === 0;
}

/** The receipt's start and source: its earliest request's (a sitemap receipt spans several). */
export function receiptOrigin(rows: readonly ReceiptTotalsRow[]): { createdAt: string; source: RecacheReceiptView['source'] } {
  const first = rows.reduce((a, b) => (Number(b.created_at_ms) < Number(a.created_at_ms) ? b : a));
  return { createdAt: new Date(Number(first.created_at_ms)).toISOString(), source: SOURCES[first.source] ?? 'api' };
}

export function receiptEntryView(row: ReceiptEntryRow, dimensionName: (id: number) => string): ReceiptEntryView {
  const dimensionId = Number(row.dimension_id);
  const updatedAtMs = Number(row.updated_at_ms);
  return {
    url: row.url,
    dimensionId,
    dimension: dimensionName(dimensionId),
    state: row.state,
    ...(row.outcome ? { outcome: row.outcome, reason: row.reason, attempt: Number(row.attempt) } : {}),
    ...(updatedAtMs > 0 ? { updatedAt: new Date(updatedAtMs).toISOString() } : {}),
  };
}

export const isReceiptState = (value: string): value is ReceiptState => (RECEIPT_STATES as readonly string[]).includes(value);
