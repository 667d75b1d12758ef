import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { countRecordEnds, writeCsvFile } from './write-csv-file';

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

describe('writeCsvFile', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'bpc-csv-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every chunk in order (reading one ahead) and counts the rows', async () => {
    let produced = 0;
    async function* source() {
      for (const part of ['"h"\r\n', '"a"\r\n"b', '"\r\n', '"c"\r\n']) {
        produced++;
        yield bytes(part);
      }
    }
    const file = path.join(dir, '1.csv');
    expect(await writeCsvFile(source(), file)).toEqual({ rowCount: 3, sizeBytes: 20 });
    expect(readFileSync(file, 'utf8')).toBe('"h"\r\n"a"\r\n"b"\r\n"c"\r\n');
    expect(produced).toBe(4);
  });

  it('on a source failure ends the source, removes the partial file and rethrows', async () => {
    let ended = false;
    async function* source() {
      try {
        yield bytes('"h"\r\n');
        throw new Error('engine failed');
      } finally {
        ended = true;
      }
    }
    const file = path.join(dir, '2.csv');
    await expect(writeCsvFile(source(), file)).rejects.toThrow('engine failed');
    expect(ended).toBe(true);
    expect(existsSync(file) || existsSync(`${file}.part`)).toBe(false);
  });
});
