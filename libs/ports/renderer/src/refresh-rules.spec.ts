import type { DimensionDefinition, UrlRuleDefinition } from '@bpc/domain';
import { emulationFor, expiresAt, resolveMode, signalledStatus, storedHeaders, unstorableStatus } from './refresh-rules';

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
