import RE2 from 're2';
import { validateConfig } from '@bpc/config';
import { AppError, HostCatalog } from '@bpc/domain';
import { literalPrefixOf, resolveEntrySelection } from './cache-entry-selection';

describe('cache entry selection', () => {
  it.each([
    ['^https://www\\.example\\.com/blog/[0-9]+$', 'https://www.example.com/blog/'],
    ['^https://www\\.example\\.com/a?b', 'https://www.example.com/'],
    ['^https://x\\.test/ab*', 'https://x.test/a'],
    ['^https://x\\.test/ab+c', 'https://x.test/ab'],
    ['^https://x\\.test/a{2}', 'https://x.test/'],
    ['^https://x\\.test/\\d+', 'https://x.test/'],
    ['^https://x\\.test/(a|b)', ''],
    ['^https://a|^https://b', ''],
    ['https://x\\.test/', ''],
    ['(?i)^https://x', ''],
    ['^', ''],
  ])('narrows %s to the literal start %j', (pattern, prefix) => {
    expect(literalPrefixOf(pattern)).toBe(prefix);
  });

  it('never narrows a pattern past what it matches', () => {
    const urls = ['https://x.test/a', 'https://x.test/ab', 'https://x.test/abc', 'https://x.test/b', 'https://x.test/a.b', 'https://x.test/a-b/c'];
    for (const pattern of ['^https://x\\.test/ab?', '^https://x\\.test/a\\.b', '^https://x\\.test/a\\-b/', '^https://x\\.test/a*b', '^https://x\\.test/.b']) {
      const prefix = literalPrefixOf(pattern);
      for (const url of urls.filter((u) => new RE2(pattern, 'u').test(u))) expect({ pattern, url, inPrefix: url.startsWith(prefix) }).toEqual({ pattern, url, inPrefix: true });
    }
  });

  const config = validateConfig(
    {
      data_dir: '/tmp/unused',
      internal_auth_key: 'k'.repeat(32),
      hosts: [
        { host_id: 1, hostnames: ['www.example.com'], dimensions: [{ id: 1, name: 'desktop' }] },
        { host_id: 2, hostnames: ['shop.example.org'], dimensions: [{ id: 1, name: 'desktop' }] },
      ],
      websites: [{ id: 'demo', host_id: 1, account_id: 'a' }],
    },
    'unit',
  );
  const hosts = new HostCatalog(config.hosts);
  const refusal = (input: object) => {
    try {
      resolveEntrySelection(config, hosts, 'demo', input);
    } catch (error) {
      return { code: (error as AppError).code, field: (error as AppError).field };
    }
    return undefined;
  };

  it("takes a prefix on the website's hostnames, normalised as cache keys are", () => {
    expect(resolveEntrySelection(config, hosts, 'demo', { prefix: 'HTTPS://WWW.EXAMPLE.COM:443/Blog#x' }).selection).toEqual({ urlPrefix: 'https://www.example.com/Blog' });
  });

  it('filters with the pattern within its literal start', () => {
    const { selection, field } = resolveEntrySelection(config, hosts, 'demo', { pattern: '^https://www\\.example\\.com/p/\\d+$' });
    expect({ field, prefix: selection.urlPrefix }).toEqual({ field: 'pattern', prefix: 'https://www.example.com/p/' });
    expect(['https://www.example.com/p/12', 'https://www.example.com/p/x'].map((url) => selection.urlFilter!(url))).toEqual([true, false]);
  });

  it.each([
    ['neither prefix nor pattern', {}, 'prefix'],
    ['both', { prefix: 'https://www.example.com/', pattern: 'x' }, 'pattern'],
    ['a prefix that is not http(s)', { prefix: 'ftp://www.example.com/' }, 'prefix'],
    ["a prefix on another website's hostname", { prefix: 'https://shop.example.org/' }, 'prefix'],
    ['an empty pattern', { pattern: '' }, 'pattern'],
    ['a backreference', { pattern: '(a)\\1' }, 'pattern'],
    ['a 501-character pattern', { pattern: 'x'.repeat(501) }, 'pattern'],
  ])('refuses %s naming the field', (_name, input, field) => {
    expect(refusal(input)).toEqual({ code: 'VALIDATION_FAILED', field });
  });
});
