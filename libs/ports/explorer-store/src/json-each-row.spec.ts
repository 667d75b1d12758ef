import { formatUtcDateTime, parseJsonEachRow, toJsonEachRow } from './json-each-row';
import { JsonRow } from './explorer-store.port';

describe('toJsonEachRow', () => {
  it('writes one JSON object per line', () => {
    const bytes = toJsonEachRow([{ a: 1, s: 'x' }, { a: 2, s: 'line\nbreak' }]);
    expect(bytes.toString('utf8')).toBe('{"a":1,"s":"x"}\n{"a":2,"s":"line\\nbreak"}\n');
  });

  it('writes Dates as UTC DateTime64 text and bigints as exact digits', () => {
    const bytes = toJsonEachRow([{ ts: new Date('2024-01-02T03:04:05.678Z'), n: 18446744073709551615n }]);
    expect(bytes.toString('utf8')).toBe('{"ts":"2024-01-02 03:04:05.678","n":"18446744073709551615"}\n');
  });

  it('converts Dates nested in arrays too', () => {
    const bytes = toJsonEachRow([{ tss: [new Date('2024-01-02T00:00:00.000Z')] }]);
    expect(bytes.toString('utf8')).toBe('{"tss":["2024-01-02 00:00:00.000"]}\n');
  });

  it('writes rows of any size and script byte for byte as their JSON lines, growing its buffer as needed', () => {
    const texts = ['Título «quoted» "page"', '中文标题', 'emoji 😀 and \u2028', 'x'.repeat(5_000), '\\ back\\slash'];
    const rows = Array.from({ length: 3_000 }, (_, i) => ({ n: i, title: texts[i % texts.length], big: i % 500 === 0 ? 'é'.repeat(20_000) : '' }));
    expect(toJsonEachRow(rows).toString('utf8')).toBe(rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
  });

  it('gives empty bytes for no rows', () => {
    expect(toJsonEachRow([]).length).toBe(0);
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

describe('toJsonEachRow with JsonRows', () => {
  it('copies a JsonRow as it is, among rows serialised here', () => {
    const bytes = toJsonEachRow([{ a: 1 }, new JsonRow(Buffer.from('{"b":"stored"}')), { a: 2 }]);
    expect(bytes.toString('utf8')).toBe('{"a":1}\n{"b":"stored"}\n{"a":2}\n');
  });
});
