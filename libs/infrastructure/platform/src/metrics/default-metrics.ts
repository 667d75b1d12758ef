import { collectDefaultMetrics, type Registry } from 'prom-client';

export const METRIC_PREFIX = 'bpc_';

/**
 * Gauges prom-client names like counters (`promtool check metrics`: non-counter
 * metrics should not have a `_total` suffix). Each is the sum of its family by
 * `type`, which stays: `sum(bpc_nodejs_active_handles)` and so on.
 */
const GAUGES_NAMED_LIKE_COUNTERS = ['handles', 'requests', 'resources'].map((what) => `${METRIC_PREFIX}nodejs_active_${what}_total`);

/** Process and Node.js metrics (prom-client's defaults, prefixed `bpc_`), less the gauges named like counters. */
export function registerDefaultMetrics(registry: Registry): void {
  collectDefaultMetrics({ register: registry, prefix: METRIC_PREFIX });
  for (const name of GAUGES_NAMED_LIKE_COUNTERS) registry.removeSingleMetric(name);
}
