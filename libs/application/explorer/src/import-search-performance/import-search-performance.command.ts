import type { ImportFormat } from './search-console-parse';

export interface ImportSearchPerformanceInput {
  readonly websiteId: string;
  readonly format: ImportFormat;
  /** CSV text (`pages_csv`, `queries_csv`). */
  readonly content?: string;
  /** The day a CSV export covers. */
  readonly date?: string;
  /** `searchanalytics_json`: the response's `rows` and the request's `dimensions`. */
  readonly rows?: readonly unknown[];
  readonly dimensions?: readonly string[];
  readonly source: 'api' | 'cli';
}

/** Turns a Search Console export into SearchPerformanceRecorded events; each imported day replaces that day. */
export class ImportSearchPerformance {
  constructor(readonly input: ImportSearchPerformanceInput) {}
}

export interface SearchPerformanceImported {
  readonly websiteId: string;
  readonly days: readonly { readonly date: string; readonly grain: string; readonly rows: number }[];
}
