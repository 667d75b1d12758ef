import type { Metric, Registry } from 'prom-client';
import { CACHE_STATUSES, CacheStatus } from '@bpc/events';
import { STATUS_CLASSES, statusClassIndexOf } from '@bpc/platform';

/** The cache status label of answers that never reached the cache: no or unknown token, a bad URL, a host not of the website, an unexpected failure. */
const NO_CACHE_STATUS = 'none';
const CACHE_LABELS: readonly string[] = [...CACHE_STATUSES, NO_CACHE_STATUS];
const CACHE_INDEX = Object.fromEntries(CACHE_STATUSES.map((status, i) => [status, i])) as Readonly<Record<CacheStatus, number>>;
const NO_CACHE_INDEX = CACHE_STATUSES.length;
/** From a hit (well under a millisecond) to a miss waiting for its render (`edge.render_timeout_ms`, 20 s by default). */
const SERVE_BUCKETS_S = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

type Sample = { metricName?: string; labels: Record<string, string | number>; value: number };

/**
 * `bpc_edge_requests_total{cache_status, status_class}` and
 * `bpc_edge_serve_duration_seconds{cache_status}` for the page route.
 *
 * A request costs a few typed-array increments: prom-client's own counters
 * and histograms build a label-key string on every call, even through a
 * `labels()` child (about 1.5 µs per request for both, measured; a cache hit
 * costs a few µs in all). The totals become Prometheus samples only when
 * scraped, through two metric objects registered beside prom-client's.
 */
export class EdgeRequestMetrics {
  private readonly requests = new Float64Array(CACHE_LABELS.length * STATUS_CLASSES.length);
  /** Per cache status: one count per bucket (not cumulative), the last one for above every bound. */
  private readonly bucketCounts = new Float64Array(CACHE_LABELS.length * (SERVE_BUCKETS_S.length + 1));
  private readonly secondsSums = new Float64Array(CACHE_LABELS.length);

  constructor(registry: Registry) {
    registry.registerMetric(scrapedMetric('bpc_edge_requests_total', 'Bot page requests answered, by cache status (none: not served from the cache) and status class.', 'counter', () => this.requestSamples(), () => this.requests.fill(0)));
    registry.registerMetric(scrapedMetric('bpc_edge_serve_duration_seconds', 'Time from receiving a bot page request to writing its answer, by cache status.', 'histogram', () => this.durationSamples(), () => this.resetDurations()));
  }

  /** One page request answered; `cacheStatus` undefined when it never reached the cache. */
  served(cacheStatus: CacheStatus | undefined, statusCode: number, seconds: number): void {
    const cache = cacheStatus === undefined ? NO_CACHE_INDEX : CACHE_INDEX[cacheStatus];
    this.requests[cache * STATUS_CLASSES.length + statusClassIndexOf(statusCode)] += 1;
    let bucket = 0;
    while (bucket < SERVE_BUCKETS_S.length && seconds > SERVE_BUCKETS_S[bucket]) bucket += 1;
    this.bucketCounts[cache * (SERVE_BUCKETS_S.length + 1) + bucket] += 1;
    this.secondsSums[cache] += seconds;
  }

  private requestSamples(): Sample[] {
    const samples: Sample[] = [];
    CACHE_LABELS.forEach((cacheStatus, cache) =>
      STATUS_CLASSES.forEach((statusClass, k) => {
        const value = this.requests[cache * STATUS_CLASSES.length + k];
        if (value > 0) samples.push({ labels: { cache_status: cacheStatus, status_class: statusClass }, value });
      }),
    );
    return samples;
  }

  private durationSamples(): Sample[] {
    const samples: Sample[] = [];
    CACHE_LABELS.forEach((cacheStatus, cache) => {
      const counts = this.bucketCounts.subarray(cache * (SERVE_BUCKETS_S.length + 1), (cache + 1) * (SERVE_BUCKETS_S.length + 1));
      const count = counts.reduce((a, b) => a + b, 0);
      if (count === 0) return;
      let cumulative = 0;
      SERVE_BUCKETS_S.forEach((le, b) => {
        cumulative += counts[b];
        samples.push({ metricName: 'bpc_edge_serve_duration_seconds_bucket', labels: { cache_status: cacheStatus, le }, value: cumulative });
      });
      samples.push({ metricName: 'bpc_edge_serve_duration_seconds_bucket', labels: { cache_status: cacheStatus, le: '+Inf' }, value: count });
      samples.push({ metricName: 'bpc_edge_serve_duration_seconds_sum', labels: { cache_status: cacheStatus }, value: this.secondsSums[cache] });
      samples.push({ metricName: 'bpc_edge_serve_duration_seconds_count', labels: { cache_status: cacheStatus }, value: count });
    });
    return samples;
  }

  private resetDurations(): void {
    this.bucketCounts.fill(0);
    this.secondsSums.fill(0);
  }
}

/**
 * A metric object as prom-client's registry reads it (`get()` at scrape time,
 * `reset()` from `resetMetrics()`); its typings admit only prom-client's own
 * classes, hence the cast.
 */
function scrapedMetric(name: string, help: string, type: 'counter' | 'histogram', samples: () => Sample[], reset: () => void): Metric {
  const metric = { name, help, type, aggregator: 'sum', get: async () => ({ name, help, type, aggregator: 'sum', values: samples() }), reset };
  return metric as unknown as Metric;
}
