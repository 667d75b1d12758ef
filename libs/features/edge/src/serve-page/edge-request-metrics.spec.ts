import { Registry } from 'prom-client';
import { EdgeRequestMetrics } from './edge-request-metrics';

describe('EdgeRequestMetrics', () => {
  it('exposes counts by cache status and status class, and serve times as a Prometheus histogram', async () => {
    const registry = new Registry();
    const metrics = new EdgeRequestMetrics(registry);
    metrics.served('hit', 200, 0.0003);
    metrics.served('hit', 304, 0.002);
    metrics.served('miss', 504, 20);
    metrics.served(undefined, 401, 0.0001);
    const text = await registry.metrics();
    const lines = text.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        '# TYPE bpc_edge_requests_total counter',
        'bpc_edge_requests_total{cache_status="hit",status_class="2xx"} 1',
        'bpc_edge_requests_total{cache_status="hit",status_class="3xx"} 1',
        'bpc_edge_requests_total{cache_status="miss",status_class="5xx"} 1',
        'bpc_edge_requests_total{cache_status="none",status_class="4xx"} 1',
        '# TYPE bpc_edge_serve_duration_seconds histogram',
        'bpc_edge_serve_duration_seconds_bucket{cache_status="hit",le="0.0005"} 1',
        'bpc_edge_serve_duration_seconds_bucket{cache_status="hit",le="0.001"} 1',
        'bpc_edge_serve_duration_seconds_bucket{cache_status="hit",le="0.0025"} 2',
        'bpc_edge_serve_duration_seconds_bucket{cache_status="hit",le="+Inf"} 2',
        'bpc_edge_serve_duration_seconds_sum{cache_status="hit"} 0.0023',
        'bpc_edge_serve_duration_seconds_count{cache_status="hit"} 2',
        'bpc_edge_serve_duration_seconds_bucket{cache_status="miss",le="10"} 0',
        'bpc_edge_serve_duration_seconds_bucket{cache_status="miss",le="30"} 1',
      ]),
    );
    // Only label sets that were seen are exposed, as prom-client's own metrics do.
    expect(text).not.toContain('cache_status="stale"');
  });

  it('counts a status outside 100…599 with its nearest class', async () => {
    const registry = new Registry();
    const metrics = new EdgeRequestMetrics(registry);
    metrics.served('bypass', 0, 0.01);
    metrics.served('bypass', 999, 0.01);
    const text = await registry.metrics();
    expect(text).toContain('bpc_edge_requests_total{cache_status="bypass",status_class="1xx"} 1');
    expect(text).toContain('bpc_edge_requests_total{cache_status="bypass",status_class="5xx"} 1');
  });
});
