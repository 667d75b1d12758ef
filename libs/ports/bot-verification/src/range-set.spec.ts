import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readRangeSet } from './range-files';
import { RANGE_SET_STALE_DAYS, rangeSetAge, rangeSetProblems, uncoveredRangeSources, type RangeFileSource } from './range-set';
import { RANGE_SOURCES } from './range-sources';

/** A real set's sources: one file per official file, as the update command writes them. */
const officialSet = (downloaded = '2026-08-21'): RangeFileSource[] => RANGE_SOURCES.map((source) => ({ file: source.file, operator: source.operator, urls: [source.url], downloaded }));
const without = (sources: RangeFileSource[], url: string) => sources.filter((source) => !source.urls.includes(url));
const OPENAI_URLS = RANGE_SOURCES.filter((source) => source.operator === 'OpenAI').map((source) => source.url);

describe('rangeSetProblems: a set that would prove real crawlers false does not load', () => {
  it('accepts every official file, and one file holding several of them (a union)', () => {
    expect(rangeSetProblems(officialSet(), { sample: false })).toEqual([]);
    const union: RangeFileSource = { file: 'openai.json', operator: 'OpenAI', urls: OPENAI_URLS, downloaded: '2026-08-22', creationTime: 'unknown' };
    expect(rangeSetProblems([...officialSet().filter((source) => source.operator !== 'OpenAI'), union], { sample: false })).toEqual([]);
  });

  it('refuses a set missing an official file of an operator that documents no reverse DNS', () => {
    expect(rangeSetProblems(without(officialSet(), 'https://openai.com/chatgpt-user.json'), { sample: false })).toEqual([
      'no file holds https://openai.com/chatgpt-user.json: OpenAI documents no reverse DNS, so its real ChatGPT-User would be proven false',
    ]);
  });

  it('lets an official file of an operator with reverse DNS be missing: its crawlers are checked by DNS', () => {
    const url = 'https://developers.google.com/static/crawling/ipranges/user-triggered-fetchers-google.json';
    expect(rangeSetProblems(without(officialSet(), url), { sample: false })).toEqual([]);
    expect(uncoveredRangeSources(without(officialSet(), url)).map((source) => source.url)).toEqual([url]);
  });

  it('refuses a set with no file at all of an operator that publishes ranges', () => {
    expect(rangeSetProblems(without(officialSet(), 'https://search.developer.apple.com/applebot.json'), { sample: false })).toEqual(['no file of Apple, which publishes ranges']);
  });

  it("refuses an operator it does not know (a misspelt one would never match a claim), and holds a SAMPLE set to that rule only", () => {
    const misspelt: RangeFileSource = { file: 'x.json', operator: 'Open AI', urls: [], downloaded: 'SAMPLE' };
    expect(rangeSetProblems([...officialSet(), misspelt], { sample: false })).toEqual(['x.json: "Open AI" publishes no ranges we know (RANGE_SOURCES)']);
    expect(rangeSetProblems([misspelt], { sample: true })).toEqual(['x.json: "Open AI" publishes no ranges we know (RANGE_SOURCES)']);
    expect(rangeSetProblems([{ file: 'googlebot.json', operator: 'Google', urls: ['SAMPLE'], downloaded: 'SAMPLE' }], { sample: true })).toEqual([]);
  });

  it('readRangeSet refuses such a directory, naming the directory and why', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-ranges-'));
    try {
      writeFileSync(path.join(dir, 'sources.json'), JSON.stringify({ files: without(officialSet(), 'https://www.perplexity.com/perplexity-user.json') }));
      await expect(readRangeSet(dir)).rejects.toThrow(`${dir}: no file holds https://www.perplexity.com/perplexity-user.json: Perplexity documents no reverse DNS`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('rangeSetAge: how old the edge says its set is at startup', () => {
  const day = (date: string) => Date.parse(`${date}T00:00:00Z`);

  it('dates a set by its oldest file (its download, else its creationTime) and counts whole days', () => {
    const sources: RangeFileSource[] = [
      ...officialSet('2026-08-22').filter((source) => source.operator !== 'Apple'),
      { file: 'applebot.json', operator: 'Apple', urls: ['https://search.developer.apple.com/applebot.json'], downloaded: 'unknown', creationTime: '2026-08-21T10:00:00.000000' },
    ];
    expect(rangeSetAge(sources, day('2026-12-07') + 3_600_000)).toEqual({ asOf: '2026-08-21', ageDays: 108, stale: false, reverseDnsOnly: [] });
  });

  it(`is stale past ${RANGE_SET_STALE_DAYS} days`, () => {
    expect(rangeSetAge(officialSet(), day('2026-08-21') + RANGE_SET_STALE_DAYS * 86_400_000).stale).toBe(false);
    expect(rangeSetAge(officialSet(), day('2026-08-21') + (RANGE_SET_STALE_DAYS + 1) * 86_400_000).stale).toBe(true);
  });

  it('has no date when a file has none, and names the official files only reverse DNS covers', () => {
    const sources = [...officialSet().slice(1), { ...officialSet()[0], downloaded: 'unknown', creationTime: 'unknown' }];
    expect(rangeSetAge(sources, day('2026-12-07'))).toEqual({ stale: false, reverseDnsOnly: [] });
    expect(rangeSetAge(officialSet().slice(1), day('2026-12-07')).reverseDnsOnly).toEqual([RANGE_SOURCES[0].url]);
  });
});
