import type { ReceiptState } from './receipt-sql';

/** One page of a recache receipt of a website. */
export class GetRecacheReceipt {
  constructor(
    readonly websiteId: string,
    readonly receiptId: string,
    readonly page: number,
    readonly perPage: number,
    readonly state: ReceiptState | undefined,
  ) {}
}

export interface ReceiptEntryView {
  readonly url: string;
  readonly dimensionId: number;
  readonly dimension: string;
  readonly state: ReceiptState;
  /** The render outcome that ended the entry (`stored`, `kept_*`, `gave_up`, …), or `retry_scheduled` while it waits for another attempt. */
  readonly outcome?: string;
  readonly reason?: string;
  readonly attempt?: number;
  readonly updatedAt?: string;
}

export interface RecacheReceiptView {
  readonly receiptId: string;
  readonly createdAt: string;
  readonly source: 'api' | 'sitemap' | 'daemon';
  /** No entry is queued or rendering any more. */
  readonly done: boolean;
  readonly totals: Readonly<Record<'entries' | ReceiptState, number>>;
  readonly data: readonly ReceiptEntryView[];
  readonly meta: { readonly page: number; readonly perPage: number; readonly total: number; readonly totalPages: number };
}
