import { botCatalog } from '@bpc/bots';
import { BotVerifier } from './bot-verifier';
import { rangesOf } from './published-ranges';
import type { DnsLookups } from './reverse-dns';
import { readRangeSet, SHIPPED_RANGES_DIR } from './range-files';
import { RANGE_SOURCES } from './range-sources';

/** Lookups that fail the test if asked: a range answer never waits for DNS. */
const noLookups: DnsLookups = {
  resolvePtr: () => Promise.reject(new Error('no DNS in this spec')),
  resolve4: () => Promise.reject(new Error('no DNS in this spec')),
  resolve6: () => Promise.reject(new Error('no DNS in this spec')),
};

/** The real range set that ships as the edge's default (docs/bots.md, "Range files"); its age is the edge's startup log's business, not a test's. */
describe('the shipped range set', () => {
  const loaded = readRangeSet(SHIPPED_RANGES_DIR);

  it('loads as a real set (not the SAMPLE one), every prefix valid CIDR', async () => {
    const set = await loaded;
    expect(set.sample).toBe(false);
    expect(() => rangesOf(set.files)).not.toThrow();
    expect(set.files.every(({ file }) => file.prefixes.length > 0)).toBe(true);
  });

  it('names for each file an operator that publishes ranges, as the classifier names it, and only its official URLs', async () => {
    const { sources } = await loaded;
    const classified = new Set(botCatalog().bots.map((bot) => bot.operator));
    const officialOf = new Map(RANGE_SOURCES.map((source) => [source.url, source.operator]));
    expect(sources.filter((source) => !classified.has(source.operator) || source.urls.length === 0 || source.urls.some((url) => officialOf.get(url) !== source.operator))).toEqual([]);
  });

  it('says where each file comes from: a dated download or a mirror with its commit and licence', async () => {
    const { sources } = await loaded;
    const undocumented = sources.filter(({ downloaded, creationTime, mirror }) => !(/^\d{4}-\d{2}-\d{2}$/.test(downloaded) || /^\d{4}-\d{2}-\d{2}T/.test(creationTime ?? '')) || (mirror !== undefined && !(/^[0-9a-f]{40}$/.test(mirror.commit) && mirror.license.length > 0)));
    expect(undocumented).toEqual([]);
  });

  it.each([
    ['Google', '66.249.66.1'],
    ['Google', '2001:4860:4801:10::1'],
    ['Microsoft', '157.55.39.1'],
    ['Apple', '17.241.208.161'],
  ])("proves a real crawler's address at once: %s %s", async (operator, ip) => {
    const verifier = new BotVerifier({ ranges: rangesOf((await loaded).files), lookups: noLookups });
    expect(verifier.verify(operator, ip)).toBe('yes');
  });

  it('holds no address outside the operators\' ranges, and proves a range-only claim from one false', async () => {
    const ranges = rangesOf((await loaded).files);
    for (const ip of ['203.0.113.7', '8.8.8.8', '2001:db8::1', '127.0.0.1']) expect(ranges.operatorOfAddress(ip)).toBeUndefined();
    const verifier = new BotVerifier({ ranges, lookups: noLookups });
    expect(['OpenAI', 'Perplexity', 'DuckDuckGo'].map((operator) => verifier.verify(operator, '203.0.113.7'))).toEqual(['no', 'no', 'no']);
  });
});
