import type { Logger } from 'pino';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ConversionListener } from './agent-markdown';

/** Conversions to Markdown (counted by result, timed) and the bytes kept, for `/metrics`; a failed conversion is logged. */
export function markdownMetrics(registry: Registry, keptBytes: () => number, logger: Logger): ConversionListener {
  const conversions = new Counter({ name: 'bpc_edge_markdown_conversions_total', help: 'Stored renders converted to Markdown for agents, by result (converted, failed)', labelNames: ['result'], registers: [registry] });
  const seconds = new Histogram({ name: 'bpc_edge_markdown_conversion_seconds', help: 'Time to convert a stored render to Markdown for agents (in the conversion thread, queue included)', buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5], registers: [registry] });
  new Gauge({
    name: 'bpc_edge_markdown_cache_bytes',
    help: 'Bytes of Markdown for agents (and its gzipped form) kept in memory',
    registers: [registry],
    collect(this: Gauge) {
      this.set(keptBytes());
    },
  });
  return {
    converted: (_entry, took) => {
      conversions.inc({ result: 'converted' });
      seconds.observe(took);
    },
    failed: (error, entry) => {
      conversions.inc({ result: 'failed' });
      logger.warn({ err: error, url: entry.url, bodyPath: entry.bodyPath }, 'Markdown for agents: the render could not be converted; its HTML is served');
    },
  };
}
