export interface GenerateDemoDataInput {
  readonly websiteId: string;
  readonly days: number;
  readonly requestsPerDay: number;
  readonly seed: number;
}

/** Writes synthetic bot traffic, the renders behind it, a few receipted recaches, the alerts they raised and search performance for a website into the log. */
export class GenerateDemoData {
  constructor(readonly input: GenerateDemoDataInput) {}
}

export interface DemoDataWritten {
  readonly websiteId: string;
  readonly botRequests: number;
  /** Render outcomes written: one per miss, and the scheduler's recaches. */
  readonly renders: number;
  readonly searchDays: number;
  /** Ids of the recache receipts written (`GET …/cache/receipts/{id}`; the Renders page links their renders to them), oldest first. */
  readonly receipts: readonly string[];
  /** Alert webhook tries written (the Alerts page's rows), every alert delivered. */
  readonly alertDeliveries: number;
  readonly from: string;
  readonly to: string;
}
