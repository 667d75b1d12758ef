import { findExplorer, resolveQuery, DEFAULT_LIMITS } from '@bpc/explorer';
import { attachmentDisposition, canonicalJson, exportQuestion, questionHash, sanitiseFilename } from './export-question';

const events = findExplorer('events')!;
const NOW = Date.parse('2026-11-21T12:00:00Z');
const hashOf = (body: Record<string, unknown>, nowMs = NOW, maxRows = 1000, filename = 'a.csv', user = 'ann', website = 'demo') =>
  questionHash(user, website, exportQuestion(resolveQuery(events, body, nowMs, DEFAULT_LIMITS), maxRows, filename));

describe('the same question', () => {
  it('ignores key order, explicit defaults and filter order', () => {
    const filters = [{ field: 'url', op: 'contains', val: 'a' }, { field: 'status_code', val: 200 }];
    expect(hashOf({ filters })).toBe(hashOf({ mode: 'requests', period: '30d', sortDir: 'desc', sort: 'event_date_time', filters: [...filters].reverse() }));
    expect(hashOf({ columns: ['page', 'event_date_time', 'bot_name', 'serve_time'] })).toBe(hashOf({}));
  });

  it('keeps a relative period the same question later on (the window is frozen at creation)', () => {
    expect(hashOf({ period: '30d' }, NOW)).toBe(hashOf({ period: '30d' }, NOW + 3_600_000));
  });

  it('keeps a comparison with the default compPeriod the same question a moment later (its window moves with the clock)', () => {
    expect(hashOf({ mode: 'comparison' }, NOW)).toBe(hashOf({ mode: 'comparison' }, NOW + 1));
    expect(hashOf({ mode: 'comparison', period: '7d' }, NOW)).toBe(hashOf({ mode: 'comparison', period: '7d' }, NOW + 3_600_000));
    const asked = '2026-10-01,2026-10-07';
    expect(hashOf({ mode: 'comparison', compPeriod: asked }, NOW)).toBe(hashOf({ mode: 'comparison', compPeriod: asked }, NOW + 1));
    expect(hashOf({ mode: 'comparison', compPeriod: asked })).not.toBe(hashOf({ mode: 'comparison' }));
    expect(hashOf({ mode: 'comparison', compCategory: 'lost' })).not.toBe(hashOf({ mode: 'comparison' }));
  });

  it('differs in anything that changes the rows or the file: columns order, filters, maxRows, filename, user, website', () => {
    const base = hashOf({});
    expect(hashOf({ columns: ['event_date_time', 'page', 'bot_name', 'serve_time'] })).not.toBe(base);
    expect(hashOf({ filters: [{ field: 'url', val: 'a' }] })).not.toBe(base);
    expect(hashOf({ period: '7d' })).not.toBe(base);
    expect(hashOf({}, NOW, 999)).not.toBe(base);
    expect(hashOf({}, NOW, 1000, 'b.csv')).not.toBe(base);
    expect(hashOf({}, NOW, 1000, 'a.csv', 'bob')).not.toBe(base);
    expect(hashOf({}, NOW, 1000, 'a.csv', 'ann', 'other')).not.toBe(base);
  });

  it('serialises with sorted keys at every level', () => {
    expect(canonicalJson({ b: 1, a: [{ d: 2, c: undefined, b: null }] })).toBe('{"a":[{"b":null,"d":2}],"b":1}');
  });
});

describe('sanitiseFilename', () => {
  it.each([
    [undefined, 'events-export.csv'],
    ['', 'events-export.csv'],
    ['report', 'report.csv'],
    ['report.CSV', 'report.csv'],
    ['../../etc/passwd', '_.._etc_passwd.csv'],
    ['a"b\\c\r\nd;e', 'a_b_c__d_e.csv'],
    ['  ..hidden  ', 'hidden.csv'],
    ['résumé 2026', 'résumé 2026.csv'],
    ['\u202etxt.exe', 'txt.exe.csv'],
    ['in\u2066voice\u2069\u200e\u200f\u061c', 'invoice.csv'],
    ['zero\u200bwidth\u200c\u200d\u2060\ufeff\u00ad', 'zerowidth.csv'],
    ['report.csv\u202c', 'report.csv'],
    ['\u202a\u202b\u202d\u202e', 'events-export.csv'],
    ['مرحبا 2026', 'مرحبا 2026.csv'],
  ])('%j → %j', (input, expected) => expect(sanitiseFilename(input, 'events')).toBe(expected));

  it('leaves no format character (Unicode category Cf) anywhere in the BMP and beyond', () => {
    const every = Array.from({ length: 0x110000 }, (_, cp) => (cp >= 0xd800 && cp <= 0xdfff ? '' : String.fromCodePoint(cp))).join('');
    expect(sanitiseFilename(every, 'events')).not.toMatch(/\p{Cf}/u);
  });
});

describe('attachmentDisposition', () => {
  it('names the file in ASCII and in UTF-8, format characters removed from both (a record an older build stored with them)', () => {
    const header = attachmentDisposition('\u202etxt.exe.csv');
    expect(header).toBe(`attachment; filename="txt.exe.csv"; filename*=UTF-8''txt.exe.csv`);
    expect(attachmentDisposition('résumé\u200b.csv')).toBe(`attachment; filename="r_sum_.csv"; filename*=UTF-8''r%C3%A9sum%C3%A9.csv`);
  });
});
