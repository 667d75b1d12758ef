export interface GenerateDemoDataInput {
  readonly websiteId: string;
  readonly days: number;
  readonly requestsPerDay: number;
  readonly seed: number;
}

/** Writes synthetic bot traffic and search performance for a website into the log. */
export class GenerateDemoData {
  constructor(readonly input: GenerateDemoDataInput) {}
}

export interface DemoDataWritten {
  readonly websiteId: string;
  readonly botRequests: number;
  readonly searchDays: number;
  readonly from: string;
  readonly to: string;
}
