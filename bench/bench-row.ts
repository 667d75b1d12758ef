/** One line of the `npm run bench` table. */
export interface BenchRow {
  /** What was measured, e.g. "file event log: append 100k events, batches of 1000". */
  readonly name: string;
  /** The figure, with its unit in `unit`. */
  readonly value: number;
  readonly unit: string;
  /** The target from the issue, e.g. ">= 50000 events/s"; empty when there is none. */
  readonly target: string;
  /** Whether the target was met; undefined when there is no target. */
  readonly pass?: boolean;
  /** Baseline measured in the same run and the ratio against it, when the target is relative. */
  readonly baseline?: { readonly name: string; readonly value: number; readonly unit: string };
  readonly ratio?: number;
}

export interface BenchSuite {
  readonly name: string;
  run(): Promise<BenchRow[]>;
}
