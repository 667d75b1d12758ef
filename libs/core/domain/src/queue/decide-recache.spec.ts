import { HostCatalog } from '../hosts/host-catalog';
import type { HostDefinition } from '../hosts/host-definition';
import { AppError } from '../shared/app-error';
import { decideRecache, RecacheRequestInput } from './decide-recache';

const host: HostDefinition = {
  host_id: 1,
  hostnames: ['www.example.com'],
  cache_ttl: 3600,
  dimensions: [
    { id: 1, name: 'desktop', match: { fallback: true }, action: 'render' },
    { id: 2, name: 'mobile', match: { user_agent: 'Mobile', fallback: false }, action: 'render' },
  ],
  url_rules: [{ pattern: '^/admin/', action: 'ignore' }],
};
const hosts = new HostCatalog([host]);
const request = (over: Partial<RecacheRequestInput> = {}): RecacheRequestInput => ({
  hostId: 1,
  urls: ['https://www.example.com/a'],
  priority: 'normal',
  ...over,
});

function rejection(input: RecacheRequestInput): { field?: string; message: string } {
  try {
    decideRecache(input, hosts);
  } catch (error) {
    if (error instanceof AppError) return { field: error.field, message: error.message };
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('decideRecache', () => {
  it('given no dimension ids, when deciding, then every configured dimension is queued', () => {
    expect(decideRecache(request(), hosts).dimensionIds).toEqual([1, 2]);
    expect(decideRecache(request({ dimensionIds: [] }), hosts).dimensionIds).toEqual([1, 2]);
  });

  it('given named dimensions, then only those are queued, once each', () => {
    expect(decideRecache(request({ dimensionIds: [2, 2] }), hosts).dimensionIds).toEqual([2]);
  });

  it('given duplicate and differently written URLs, then each URL is queued once in normal form', () => {
    const decision = decideRecache(request({ urls: ['https://WWW.example.com/a#x', 'https://www.example.com:443/a', 'https://www.example.com/b?q=1'] }), hosts);
    expect(decision.urls).toEqual(['https://www.example.com/a', 'https://www.example.com/b?q=1']);
  });

  it('given a URL an ignore rule matches, then it is not queued', () => {
    expect(decideRecache(request({ urls: ['https://www.example.com/admin/x', 'https://www.example.com/'] }), hosts).urls).toEqual(['https://www.example.com/']);
  });

  it('keeps the mode override when given', () => {
    expect(decideRecache(request({ mode: 'bypass' }), hosts).mode).toBe('bypass');
    expect(decideRecache(request(), hosts)).not.toHaveProperty('mode');
  });

  it('rejects what it cannot honour, naming the field', () => {
    expect(rejection(request({ hostId: 9 }))).toEqual({ field: 'host_id', message: 'host_id 9: host not found' });
    expect(rejection(request({ dimensionIds: [1, 3] })).field).toBe('dimension_ids[1]');
    expect(rejection(request({ urls: [] })).field).toBe('urls');
    expect(rejection(request({ urls: Array(10_001).fill('https://www.example.com/') })).field).toBe('urls');
    expect(rejection(request({ urls: ['https://www.example.com/', 'ftp://www.example.com/x'] })).field).toBe('urls[1]');
    expect(rejection(request({ urls: ['/relative'] })).field).toBe('urls[0]');
    expect(rejection(request({ urls: ['https://other.example/'] })).field).toBe('urls[0]');
  });

  it('accepts exactly 10,000 URLs', () => {
    const urls = Array.from({ length: 10_000 }, (_, i) => `https://www.example.com/p${i}`);
    expect(decideRecache(request({ urls }), hosts).urls).toHaveLength(10_000);
  });
});
