export interface GenerateDemoDataInput {
  readonly websiteId: string;
  readonly days: number;
  readonly requestsPerDay: number;
  readonly seed: number;
}

/** Writes synthetic bot traffic, the renders behind it and search performance for a website into the log. */
export class GenerateDemoData {
  constructor(readonly input: GenerateDemoDataInput) {}
}

export interface DemoDataWritten {
  readonly websiteId: string;
  readonly botRequests: number;
  /** Render outcomes written: one per miss, and the scheduler's recaches. */
  readonly renders: number;
  readonly searchDays: number;
  readonly from: string;
  readonly to: string;
}
