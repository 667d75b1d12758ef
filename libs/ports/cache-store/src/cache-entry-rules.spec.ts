import { entryField, invalidationFields, isRedirect, newBodyBase, parseEntryField, putDecision } from './cache-entry-rules';

describe('cache entry rules', () => {
  const T = 1_000;

  it('lets a fresh render win over a bypass, and nothing else', () => {
    expect(putDecision({ kind: 'render', expiresAt: T + 1 }, { kind: 'bypass', createdAt: T })).toBe('render-wins');
    expect(putDecision({ kind: 'render', expiresAt: T }, { kind: 'bypass', createdAt: T })).toBe('store');
    expect(putDecision({ kind: 'render', expiresAt: T + 1 }, { kind: 'render', createdAt: T })).toBe('store');
    expect(putDecision({ kind: 'bypass', expiresAt: T + 1 }, { kind: 'bypass', createdAt: T })).toBe('store');
    expect(putDecision(undefined, { kind: 'bypass', createdAt: T })).toBe('store');
  });

  it('knows a redirect by its 3xx status and its location', () => {
    expect(isRedirect({ statusCode: 301, headers: { location: '/x' } })).toBe(true);
    expect(isRedirect({ statusCode: 301, headers: {} })).toBe(false);
    expect(isRedirect({ statusCode: 200, headers: { location: '/x' } })).toBe(false);
  });

  it('encodes fields reversibly, URLs with separators included, and de-duplicates invalidations', () => {
    expect(parseEntryField(entryField(12, 'https://a.test/x|y'))).toEqual({ dimensionId: 12, url: 'https://a.test/x|y' });
    expect(invalidationFields(['a', 'b', 'a'], [1, 2, 1])).toEqual(['1|a', '2|a', '1|b', '2|b']);
  });

  it('names a new body path per put, under the host and a 2-hex fan-out directory', () => {
    const key = { hostId: 7, url: 'https://a.test/', dimensionId: 1 };
    const [a, b] = [newBodyBase(key, T), newBodyBase(key, T)];
    expect(a).toMatch(/^7\/[0-9a-f]{2}\/[0-9a-f]{64}\.1000\.[0-9a-f]{8}$/);
    expect(a).not.toBe(b);
    expect(a.split('.')[0]).toBe(b.split('.')[0]);
  });
});
