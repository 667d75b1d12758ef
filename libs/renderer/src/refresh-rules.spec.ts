import type { DimensionDefinition, UrlRuleDefinition } from '@bpc/domain';
import { emulationFor, expiresAt, originUrl, publicLocation, resolveMode, storedHeaders, unstorableStatus } from './refresh-rules';

const dimension = (overrides: Partial<DimensionDefinition> = {}): DimensionDefinition => ({
  id: 1,
  name: 'desktop',
  match: { fallback: true },
  action: 'render',
  ...overrides,
});
const rule = (action: UrlRuleDefinition['action'], cache_ttl?: number): UrlRuleDefinition => ({ pattern: '^/', action, ...(cache_ttl ? { cache_ttl } : {}) });

describe('refresh rules', () => {
  describe('resolveMode', () => {
    it('takes the job mode first, then a render/bypass URL rule, then the dimension', () => {
      expect(resolveMode('bypass', rule('render'), dimension())).toBe('bypass');
      expect(resolveMode(undefined, rule('bypass'), dimension({ action: 'render' }))).toBe('bypass');
      expect(resolveMode(undefined, rule('ignore'), dimension({ action: 'bypass' }))).toBe('bypass');
      expect(resolveMode(undefined, undefined, dimension({ action: 'render' }))).toBe('render');
    });
  });

  describe('originUrl', () => {
    it('replaces scheme, host and port with the origin, keeping path and query', () => {
      const url = new URL('https://www.example.com/a/b?x=1&y=2');
      expect(originUrl(url, 'http://127.0.0.1:8080').toString()).toBe('http://127.0.0.1:8080/a/b?x=1&y=2');
      expect(originUrl(new URL('https://www.example.com:8443/p'), 'https://origin.internal').toString()).toBe('https://origin.internal/p');
      expect(originUrl(url, undefined).toString()).toBe(url.toString());
    });
  });

  describe('publicLocation', () => {
    const fetched = new URL('http://127.0.0.1:8080/old?q=1');
    const publicUrl = new URL('https://www.example.com/old?q=1');
    it('resolves relative locations and points the origin back to the public host', () => {
      expect(publicLocation('/new', fetched, publicUrl)).toBe('https://www.example.com/new');
      expect(publicLocation('http://127.0.0.1:8080/x', fetched, publicUrl)).toBe('https://www.example.com/x');
    });
    it('leaves other hosts alone', () => {
      expect(publicLocation('https://elsewhere.test/y', fetched, publicUrl)).toBe('https://elsewhere.test/y');
      expect(publicLocation('/same', publicUrl, publicUrl)).toBe('https://www.example.com/same');
    });
  });

  it('expires after the URL rule TTL when set, else the host TTL', () => {
    expect(expiresAt(1_000, { cache_ttl: 60 }, undefined)).toBe(61_000);
    expect(expiresAt(1_000, { cache_ttl: 60 }, rule('render', 5))).toBe(6_000);
    expect(expiresAt(1_000, { cache_ttl: 60 }, rule('render'))).toBe(61_000);
  });

  describe('emulationFor', () => {
    it('renders as mobile Googlebot when the dimension matches the mobile UA only', () => {
      const mobile = emulationFor(dimension({ match: { user_agent: 'android|mobile', fallback: false } }));
      expect(mobile.mobile).toBe(true);
      expect(mobile.userAgent).toMatch(/Mobile.*Googlebot/);
      expect(mobile.viewport).toMatchObject({ isMobile: true, width: 412 });
    });
    it('renders as desktop for a generic pattern, a desktop pattern or a fallback', () => {
      expect(emulationFor(dimension({ match: { user_agent: 'googlebot', fallback: false } })).mobile).toBe(false);
      expect(emulationFor(dimension({ match: { user_agent: 'bingbot', fallback: false } })).mobile).toBe(false);
      expect(emulationFor(dimension()).viewport).toMatchObject({ isMobile: false, width: 1366 });
    });
  });

  it('keeps only the headers that matter', () => {
    expect(storedHeaders({ 'content-type': 'text/html', 'set-cookie': 'a=1', 'cache-control': 'no-store', 'x-robots-tag': 'noindex', location: '' })).toEqual({
      'content-type': 'text/html',
      'x-robots-tag': 'noindex',
    });
  });

  it('joins a repeated header (newline-separated, as the browser reports it) with commas and drops unsendable values', () => {
    expect(storedHeaders({ link: '</a.css>; rel=preload\n</b.js>; rel=preload', 'x-robots-tag': 'noindex\nnofollow', 'content-language': 'en\u0001' })).toEqual({
      link: '</a.css>; rel=preload, </b.js>; rel=preload',
      'x-robots-tag': 'noindex, nofollow',
    });
  });

  it('stores real answers (2xx, 3xx, 4xx) and refuses transient ones', () => {
    for (const status of [200, 301, 404, 410]) expect(unstorableStatus(status)).toBeUndefined();
    for (const status of [408, 429, 500, 503]) expect(unstorableStatus(status)).toBe(`origin answered ${status}`);
  });
});
