import { Counter, Histogram, Registry } from 'prom-client';

/** `2xx` for 200…299 and so on; anything outside 100…599 counts with its nearest class. */
export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const;

/** Index of a status code's class in `STATUS_CLASSES` (arithmetic, so no string is built per request). */
export function statusClassIndexOf(statusCode: number): number {
  return Math.min(Math.max(Math.trunc(statusCode / 100), 1), 5) - 1;
}

/** Requests answered by the app's Fastify routes: one is counted and timed by method, route template and status class. */
export type ObserveHttpRequest = (method: string, route: string, statusCode: number, seconds: number) => void;

/**
 * `bpc_http_requests_total` and `bpc_http_request_duration_seconds` on the
 * app's registry. Labels are bounded: methods Node parses, route templates
 * (`routeTemplateOf`), five status classes.
 */
export function httpRequestMetrics(registry: Registry): ObserveHttpRequest {
  const labelNames = ['method', 'route', 'status_class'] as const;
  const requests = new Counter({ name: 'bpc_http_requests_total', help: 'HTTP requests answered, by method, route template and status class.', labelNames, registers: [registry] });
  const duration = new Histogram({
    name: 'bpc_http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to the end of its answer, by method, route template and status class.',
    labelNames,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });
  return (method, route, statusCode, seconds) => {
    const labels = { method, route, status_class: STATUS_CLASSES[statusClassIndexOf(statusCode)] };
    requests.inc(labels);
    duration.observe(labels, seconds);
  };
}
