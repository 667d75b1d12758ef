declare module 'parse-prometheus-text-format' {
  /** One sample of a counter, gauge or untyped family. */
  interface ValueSample {
    readonly value: string;
    readonly labels?: Readonly<Record<string, string>>;
  }
  /** One series of a histogram or summary family. */
  interface DistributionSample {
    readonly buckets?: Readonly<Record<string, string>>;
    readonly quantiles?: Readonly<Record<string, string>>;
    readonly count: string;
    readonly sum: string;
    readonly labels?: Readonly<Record<string, string>>;
  }
  export interface MetricFamily {
    readonly name: string;
    /** Empty when the exposition has no `# HELP` line for it. */
    readonly help: string;
    /** `UNTYPED` when the exposition has no `# TYPE` line for it. */
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    readonly metrics: readonly (ValueSample | DistributionSample)[];
  }
  /** Parses Prometheus text exposition format; throws on a line it cannot read. */
  export default function parsePrometheusTextFormat(text: string): MetricFamily[];
}
