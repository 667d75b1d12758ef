import { assertRawFormat, countCsvRecordEnds, createHeaderDeduplicator, createRecordCounter, headerLength } from './raw-formats';

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

describe('countCsvRecordEnds', () => {
  it('counts record ends, not newlines inside quoted fields or escaped quotes', () => {
    expect(countCsvRecordEnds(bytes('"a","b"\r\n"x\ny",1\r\n"""q""\n",2\r\n'), false)).toEqual({ ends: 3, inQuotes: false });
  });

  it('carries the quote state across chunk boundaries, wherever they fall', () => {
    const csv = '"h1","h2"\r\n"a\n""b""",1\r\n"c",2\r\n"",3\r\n';
    for (let cut = 0; cut <= csv.length; cut++) {
      const first = countCsvRecordEnds(bytes(csv.slice(0, cut)), false);
      const second = countCsvRecordEnds(bytes(csv.slice(cut)), first.inQuotes);
      expect(first.ends + second.ends).toBe(4);
      expect(second.inQuotes).toBe(false);
    }
  });
});

describe('createRecordCounter', () => {
  const count = (format: Parameters<typeof createRecordCounter>[0], ...chunks: string[]): number => {
    const counter = createRecordCounter(format);
    for (const chunk of chunks) counter.add(bytes(chunk));
    return counter.rows;
  };

  it('counts CSV records across chunks, without the header of a WithNames format', () => {
    expect(count('CSVWithNames', '"h"\r\n"a\n', 'b"\r\n"c"\r\n')).toBe(2);
    expect(count('CSV', '1,"x\ny"\n', '2,z\n')).toBe(2);
    expect(count('CSVWithNames', '"h"\n')).toBe(0);
    expect(count('CSVWithNames')).toBe(0);
  });

  it('counts every newline of the formats that escape them in values', () => {
    expect(count('TabSeparatedWithNames', 'a\tb\n1\tx\\ny\n', '2\t"\n')).toBe(2);
    expect(count('JSONEachRow', '{"a":"x\\ny"}\n{"a":"\\""}\n')).toBe(2);
  });
});
