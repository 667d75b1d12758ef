import { ConfigError, validateConfig } from '@bpc/config';
import { settlesWithin, SHUTDOWN_BOUNDS_TOTAL_MS } from './shutdown-bounds';

const minimal = { internal_auth_key: 'k', hosts: [{ host_id: 1, hostnames: ['www.example.com'], dimensions: [{ id: 1, name: 'desktop' }] }] };

describe('shutdown bounds and shutdown_grace_ms', () => {
  it('gives the grace period more than the sum of the steps, by default and as a floor', () => {
    expect(validateConfig(minimal, 'test').shutdown_grace_ms).toBeGreaterThan(SHUTDOWN_BOUNDS_TOTAL_MS);
    expect(() => validateConfig({ ...minimal, shutdown_grace_ms: SHUTDOWN_BOUNDS_TOTAL_MS }, 'test')).toThrow(ConfigError);
    expect(validateConfig({ ...minimal, shutdown_grace_ms: SHUTDOWN_BOUNDS_TOTAL_MS + 1_000 }, 'test').shutdown_grace_ms).toBe(SHUTDOWN_BOUNDS_TOTAL_MS + 1_000);
  });

  it('settlesWithin tells work that settled (either way) from work still running at the bound', async () => {
    expect(await settlesWithin(Promise.resolve(), 50)).toBe(true);
    expect(await settlesWithin(Promise.reject(new Error('x')), 50)).toBe(true);
    expect(await settlesWithin(new Promise(() => undefined), 20)).toBe(false);
  });
});
