import { Registry } from 'prom-client';
import { promlintProblems } from '@bpc/testing';
import { registerDefaultMetrics } from './default-metrics';

describe('registerDefaultMetrics', () => {
  it('gives process and Node.js metrics that promtool check metrics accepts: no gauge named like a counter', async () => {
    const registry = new Registry();
    registerDefaultMetrics(registry);
    const text = await registry.metrics();
    expect(promlintProblems(text)).toEqual([]);
    expect(text).toMatch(/^# TYPE bpc_nodejs_active_handles gauge$/m);
    expect(text).not.toMatch(/^bpc_nodejs_active_\w+_total/m);
  });
});
