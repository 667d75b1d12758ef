import { countRecordEnds } from './write-csv-file';

const bytes = (text: string) => new TextEncoder().encode(text);

describe('countRecordEnds', () => {
  it('counts record ends, not newlines inside quoted fields or escaped quotes', () => {
    expect(countRecordEnds(bytes('"a","b"\r\n"x\ny",1\r\n"""q""\n",2\r\n'), false)).toEqual({ ends: 3, inQuotes: false });
  });

  it('carries the quote state across chunk boundaries, wherever they fall', () => {
    const text = '"h1","h2"\r\n"a\n""b""",1\r\n"c",2\r\n"",3\r\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const first = countRecordEnds(bytes(text.slice(0, cut)), false);
      const second = countRecordEnds(bytes(text.slice(cut)), first.inQuotes);
      expect(first.ends + second.ends).toBe(4);
      expect(second.inQuotes).toBe(false);
    }
  });
});
