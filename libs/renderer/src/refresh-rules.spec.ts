import type { DimensionDefinition, UrlRuleDefinition } from '@bpc/domain';
import { emulationFor, expiresAt, originUrl, publicLocation, resolveMode, signalledStatus, storedHeaders, unstorableStatus } from './refresh-rules';

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

  describe('signalledStatus', () => {
    const page = new URL('https://www.example.com/app/item?id=1');
    it.each<[string | null, string[], ReturnType<typeof signalledStatus>]>([
      ['404', [], { statusCode: 404 }],
      [' 410 ', [], { statusCode: 410 }],
      ['503', [], { statusCode: 503 }],
      ['301', ['Location: /new'], { statusCode: 301, location: '/new' }],
      ['302', ['X-Other: 1', 'location:https://other.example/x'], { statusCode: 302, location: 'https://other.example/x' }],
      ['301', [], undefined],
      ['301', ['Location: http://['], undefined],
      [null, ['Location: /new'], undefined],
      ['abc', [], undefined],
      ['99', [], undefined],
      ['600', [], undefined],
      ['4040', [], undefined],
    ])('%j with headers %j → %j', (statusCode, headers, expected) => {
      expect(signalledStatus({ statusCode, headers }, page)).toEqual(expected);
    });
  });

  describe('originUrl', () => {
    it('replaces scheme, host and port with the origin, keeping path and query', () => {
      const url = new URL('https://www.example.com/a/b?x=1&y=2');
      expect(originUrl(url, 'http://127.0.0.1:8080').toString()).toBe('http://127.0.0.1:8080/a/b?x=1&y=2');
      expect(originUrl(new URL('https://www.example.com:8443/p'), 'https://origin.internal').toString()).toBe('https://origin.internal/p');
      expect(originUrl(url, undefined).toString()).toBe(url.toString());
    });

    it('keeps a #! page state for the page script to read, and drops any other fragment', () => {
      expect(originUrl(new URL('https://www.example.com/app?x=1#!key=value'), 'http://127.0.0.1:8080').toString()).toBe('http://127.0.0.1:8080/app?x=1#!key=value');
      expect(originUrl(new URL('https://www.example.com/app#top'), undefined).toString()).toBe('https://www.example.com/app');
    });

    it('without an origin fetches https://<the page hostname> on its default port, whatever port or scheme the page URL names', () => {
      expect(originUrl(new URL('https://www.example.com:6379/p?q=1'), undefined).toString()).toBe('https://www.example.com/p?q=1');
      expect(originUrl(new URL('http://www.example.com/p'), undefined).toString()).toBe('https://www.example.com/p');
      expect(originUrl(new URL('https://[::1]:8443/p'), undefined).toString()).toBe('https://[::1]/p');
    });

    // Each of these page paths resolves, as a relative reference, to another host.
    it.each(['//127.0.0.1:18081/x', '/\\127.0.0.1:18081/x', '/%2F%2F127.0.0.1:18081/x', '/..//127.0.0.1:18081', '/a/../..//127.0.0.1:18081/x?y=1', '/?x=//127.0.0.1:18081/'])(
      'keeps the hostile path %j a path on the origin',
      (hostile) => {
        const publicUrl = new URL(`https://www.example.com${hostile}`);
        const fetched = originUrl(publicUrl, 'http://origin.internal:8080');
        expect(fetched.origin).toBe('http://origin.internal:8080');
        expect(`${fetched.pathname}${fetched.search}`).toBe(`${publicUrl.pathname}${publicUrl.search}`);
        // fetch and Chromium are handed the serialised URL: parsed again, it still names the origin.
        expect(new URL(fetched.href).origin).toBe('http://origin.internal:8080');
        expect(originUrl(publicUrl, undefined).origin).toBe('https://www.example.com');
      },
    );
  });

  describe('publicLocation', () => {
    const fetched = new URL('http://127.0.0.1:8080/old?q=1');
    const publicUrl = new URL('https://www.example.com/old?q=1');
    it('resolves relative locations and points the origin back to the public host', () => {
      expect(publicLocation('/new', fetched, publicUrl)).toBe('https://www.example.com/new');
      expect(publicLocation('http://127.0.0.1:8080/x', fetched, publicUrl)).toBe('https://www.example.com/x');
    });
    it('keeps an origin location whose path starts with // on the public host', () => {
      const hostile = new URL('http://127.0.0.1:8080//evil.test/old');
      expect(publicLocation('http://127.0.0.1:8080//evil.test/new?q=//x#//y', hostile, publicUrl)).toBe('https://www.example.com//evil.test/new?q=//x#//y');
      expect(publicLocation('/..//evil.test/', fetched, publicUrl)).toBe('https://www.example.com//evil.test/');
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
