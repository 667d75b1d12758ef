import path from 'node:path';
import { rangesOf } from './published-ranges';
import { readRangeFiles, readRangeSet } from './range-files';

describe('rangesOf', () => {
  const ranges = rangesOf([
    { operator: 'Google', file: { prefixes: [{ ipv4Prefix: '192.0.2.0/27' }, { ipv6Prefix: '2001:db8:4860::/48' }] } },
    { operator: 'OpenAI', file: { prefixes: [{ ipv4Prefix: '198.51.100.0/24' }, { ipv4Prefix: '10.0.0.0/8' }] } },
    // A longer prefix inside another operator's shorter one: the longest prefix decides.
    { operator: 'Microsoft', file: { prefixes: [{ ipv4Prefix: '10.1.2.0/24' }] } },
  ]);

  it.each([
    ['192.0.2.1', 'Google'],
    ['192.0.2.31', 'Google'],
    ['192.0.2.32', undefined],
    ['2001:db8:4860::1', 'Google'],
    ['2001:db8:4860:ffff:ffff:ffff:ffff:ffff', 'Google'],
    ['2001:db8:4861::1', undefined],
    ['::ffff:192.0.2.5', 'Google'],
    ['198.51.100.255', 'OpenAI'],
    ['10.200.0.1', 'OpenAI'],
    ['10.1.2.3', 'Microsoft'],
    ['203.0.113.1', undefined],
    ['not an address', undefined],
    ['', undefined],
  ])('%s → %s', (ip, operator) => {
    expect(ranges.operatorOfAddress(ip)).toBe(operator);
  });

  it('knows which operators publish ranges', () => {
    expect([...ranges.operators].sort()).toEqual(['Google', 'Microsoft', 'OpenAI']);
  });

  it('refuses a prefix that is not CIDR, naming it', () => {
    expect(() => rangesOf([{ operator: 'Google', file: { prefixes: [{ ipv4Prefix: '192.0.2.0' }] } }])).toThrow('Google: "192.0.2.0" is not a CIDR prefix');
  });

  it('knows the shipped SAMPLE set for what it is (the edge warns when it is configured)', async () => {
    expect((await readRangeSet(path.join(__dirname, 'sample-ranges'))).sample).toBe(true);
  });

  it('reads a range directory (the shipped SAMPLE set) with its operators', async () => {
    const sample = rangesOf(await readRangeFiles(path.join(__dirname, 'sample-ranges')));
    expect(sample.operatorOfAddress('198.51.100.130')).toBe('OpenAI');
    expect(sample.operatorOfAddress('192.0.2.70')).toBe('Microsoft');
  });
});
