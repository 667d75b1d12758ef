import { assertRawFormat, createHeaderDeduplicator, headerLength } from './raw-formats';

const bytes = (text: string): Uint8Array => Buffer.from(text, 'utf8');
const text = (chunk: Uint8Array): string => Buffer.from(chunk).toString('utf8');

describe('createHeaderDeduplicator', () => {
  it('keeps the first header and cuts the repeated ones', () => {
    const dedupe = createHeaderDeduplicator('CSVWithNames');
    expect(text(dedupe(bytes('"a","b"\n1,2\n')))).toBe('"a","b"\n1,2\n');
    expect(text(dedupe(bytes('"a","b"\n3,4\n')))).toBe('3,4\n');
  });

  it('handles CSV names holding quoted newlines', () => {
    const header = '"a","new\nline"\n';
    expect(headerLength(bytes(`${header}1,2\n`), 'CSVWithNames')).toBe(Buffer.byteLength(header));
    const dedupe = createHeaderDeduplicator('CSVWithNames');
    dedupe(bytes(`${header}1,2\n`));
    expect(text(dedupe(bytes(`${header}3,4\n`)))).toBe('3,4\n');
  });

  it('cuts TabSeparatedWithNames headers too', () => {
    const dedupe = createHeaderDeduplicator('TabSeparatedWithNames');
    dedupe(bytes('a\tb\n1\t2\n'));
    expect(text(dedupe(bytes('a\tb\n3\t4\n')))).toBe('3\t4\n');
  });

  it('passes formats without names through untouched', () => {
    const dedupe = createHeaderDeduplicator('CSV');
    const chunk = bytes('1,2\n');
    expect(dedupe(chunk)).toBe(chunk);
    expect(dedupe(chunk)).toBe(chunk);
  });

  it('refuses a chunk that does not start with the first header', () => {
    const dedupe = createHeaderDeduplicator('CSVWithNames');
    dedupe(bytes('"a"\n1\n'));
    expect(() => dedupe(bytes('"b"\n2\n'))).toThrow(/does not start with the header/);
  });
});

describe('assertRawFormat', () => {
  it('accepts the concatenable formats only', () => {
    expect(assertRawFormat('CSVWithNames')).toBe('CSVWithNames');
    expect(() => assertRawFormat('Parquet')).toThrow(RangeError);
    expect(() => assertRawFormat('CSV SETTINGS max_threads = 1')).toThrow(RangeError);
  });
});
