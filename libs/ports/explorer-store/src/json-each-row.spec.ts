import { formatUtcDateTime, parseJsonEachRow, toJsonEachRow } from './json-each-row';
import { JsonLines } from './explorer-store.port';

/** The bytes of all chunks, as text. */
const textOf = (rows: Parameters<typeof toJsonEachRow>[0]): string => Buffer.concat(toJsonEachRow(rows)).toString('utf8');

describe('toJsonEachRow', () => {
  it('writes one JSON object per line', () => {
    expect(textOf([{ a: 1, s: 'x' }, { a: 2, s: 'line\nbreak' }])).toBe('{"a":1,"s":"x"}\n{"a":2,"s":"line\\nbreak"}\n');
  });

  it('writes Dates as UTC DateTime64 text and bigints as exact digits', () => {
    expect(textOf([{ ts: new Date('2024-01-02T03:04:05.678Z'), n: 18446744073709551615n }])).toBe('{"ts":"2024-01-02 03:04:05.678","n":"18446744073709551615"}\n');
  });

  it('converts Dates nested in arrays too', () => {
    expect(textOf([{ tss: [new Date('2024-01-02T00:00:00.000Z')] }])).toBe('{"tss":["2024-01-02 00:00:00.000"]}\n');
  });

  it('writes rows of any size and script byte for byte as their JSON lines, chunk after chunk, none split', () => {
    const texts = ['Título «quoted» "page"', '中文标题', 'emoji 😀 and \u2028', 'x'.repeat(5_000), '\\ back\\slash'];
    const rows = Array.from({ length: 3_000 }, (_, i) => ({ n: i, title: texts[i % texts.length], big: i % 500 === 0 ? 'é'.repeat(20_000) : '' }));
    expect(textOf(rows)).toBe(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    for (const chunk of toJsonEachRow(rows)) expect(chunk.toString('utf8')).toMatch(/^(\{[^\n]*\}\n)+$/);
  });

  it('gives no chunks for no rows', () => {
    expect(toJsonEachRow([])).toEqual([]);
  });

  it('refuses invalid Dates', () => {
    expect(() => formatUtcDateTime(new Date('nope'))).toThrow(RangeError);
  });
});

describe('parseJsonEachRow', () => {
  it('parses every line, with or without a trailing newline', () => {
    expect(parseJsonEachRow('{"a":1}\n{"a":2}\n')).toEqual([{ a: 1 }, { a: 2 }]);
    expect(parseJsonEachRow('{"a":1}\n{"a":2}')).toEqual([{ a: 1 }, { a: 2 }]);
  });

  it('gives no rows for empty text', () => {
    expect(parseJsonEachRow('')).toEqual([]);
    expect(parseJsonEachRow('\n')).toEqual([]);
  });
});

describe('toJsonEachRow with JsonLines', () => {
  it('sends JsonLines as they are, in order among rows serialised here, and nothing for none', () => {
    const stored = JsonLines.of([Buffer.from('{"b":"stored"}'), Buffer.from('{"b":"too"}')]);
    expect(stored.count).toBe(2);
    expect(textOf([{ a: 1 }, stored, { a: 2 }, JsonLines.of([])])).toBe('{"a":1}\n{"b":"stored"}\n{"b":"too"}\n{"a":2}\n');
    expect(toJsonEachRow([JsonLines.of([])])).toEqual([]);
  });
});
