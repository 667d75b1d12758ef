import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mountSmallFilesystem, whyNoSmallFilesystem } from '@bpc/testing';
import { mkdirDurably, publishFile, removeAtomicWriteLeftovers, writeFileAtomic } from './durable-fs';

const cannotMount = whyNoSmallFilesystem();
if (cannotMount) process.stdout.write(`durable-fs.int-spec: the full-disk case is skipped: ${cannotMount}\n`);

describe('durable files', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'bpc-durable-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces a file whole, creating its directory, and leaves no temporary file', async () => {
    const file = path.join(dir, 'sub', 'state.json');
    await writeFileAtomic(file, 'first');
    await writeFileAtomic(file, Buffer.from('second'));
    expect(readFileSync(file, 'utf8')).toBe('second');
    expect(readdirSync(path.dirname(file))).toEqual(['state.json']);
  });

  it('creates nested directories, relative or absolute, and leaves existing ones alone', async () => {
    await mkdirDurably(path.join(dir, 'a', 'b', 'c'));
    await mkdirDurably(path.join(dir, 'a', 'b', 'c'));
    await mkdirDurably(path.relative(process.cwd(), path.join(dir, 'a', 'd')));
    expect(readdirSync(path.join(dir, 'a')).sort()).toEqual(['b', 'd']);
    expect(readdirSync(path.join(dir, 'a', 'b'))).toEqual(['c']);
  });

  it('removes its temporary file when the rename fails', async () => {
    const file = path.join(dir, 'taken');
    mkdirSync(path.join(file, 'inside'), { recursive: true });
    await expect(writeFileAtomic(file, 'x')).rejects.toThrow();
    expect(readdirSync(dir)).toEqual(['taken']);
  });

  it("removes a file's leftover temporary files, not other files that start alike", async () => {
    const file = path.join(dir, 'group-a.json');
    for (const name of ['group-a.json', 'group-a.json.tmp-0badf00d', 'group-a.json.tmp-12345678', 'group-a.json.tmp-x.json', 'group-b.json.tmp-0badf00d']) {
      writeFileSync(path.join(dir, name), '{}');
    }
    await removeAtomicWriteLeftovers(file);
    expect(readdirSync(dir).sort()).toEqual(['group-a.json', 'group-a.json.tmp-x.json', 'group-b.json.tmp-0badf00d']);
    await expect(removeAtomicWriteLeftovers(path.join(dir, 'missing', 'x.json'))).resolves.toBeUndefined();
  });

  it('publishes a file written elsewhere under its final name', async () => {
    writeFileSync(path.join(dir, 'out.csv.part'), 'a,b\n');
    await publishFile(path.join(dir, 'out.csv.part'), path.join(dir, 'out.csv'));
    expect(readdirSync(dir)).toEqual(['out.csv']);
    expect(readFileSync(path.join(dir, 'out.csv'), 'utf8')).toBe('a,b\n');
  });
});

(cannotMount ? describe.skip : describe)('durable files on a full disk', () => {
  it('leaves no temporary file behind when the disk cannot take the file, so the space is not held', async () => {
    const fs = mountSmallFilesystem(1);
    try {
      const file = path.join(fs.dir, 'state.json');
      await expect(writeFileAtomic(file, Buffer.alloc(2 * 1024 * 1024))).rejects.toThrow(/ENOSPC/);
      expect(readdirSync(fs.dir)).toEqual([]);
      await writeFileAtomic(file, 'small');
      expect(readFileSync(file, 'utf8')).toBe('small');
    } finally {
      fs.unmount();
    }
  });
});
