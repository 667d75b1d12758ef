import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { ObjectGoneError, type ObjectStore, type StoredObject } from './object-store.port';

const MIB = 1024 * 1024;

async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function collect(listing: AsyncIterable<StoredObject>): Promise<StoredObject[]> {
  const found: StoredObject[] = [];
  for await (const object of listing) found.push(object);
  return found.sort((a, b) => a.key.localeCompare(b.key));
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** `total` bytes of a fixed pseudo-random pattern in 64 KiB chunks, as an upload's source. */
function patterned(total: number): { source: Readable; bytes: Buffer } {
  const bytes = Buffer.alloc(total);
  for (let i = 0; i < total; i += 4) bytes.writeUInt32LE((Math.imul(i, 2654435761) ^ (i >>> 7)) >>> 0, Math.min(i, total - 4));
  const chunks: Buffer[] = [];
  for (let at = 0; at < total; at += 64 * 1024) chunks.push(bytes.subarray(at, at + 64 * 1024));
  return { source: Readable.from(chunks), bytes };
}

/**
 * Keys the port refuses before any I/O. Each is a way out of the store's
 * directory or prefix, or a name two adapters would read differently.
 */
export const HOSTILE_KEYS: readonly string[] = ['../x', '/abs', 'a//b', 'a/../b', './a', 'a/./b', '', 'a\0b', 'a\\b', 'a/', 'a b', 'ü', 'x'.repeat(513), '..', '.', 'a/..'];

/**
 * The behaviour every ObjectStore adapter must show, run against each of them
 * (files and S3) so standalone and cluster mode cannot drift apart. `open`
 * gives a fresh, empty, isolated store per test (its own directory or
 * prefix) whose `remove` works in batches of at most 10 keys, and whose
 * `upload` uses parts of 5 MiB where it has parts; the suite closes it.
 */
export function describeObjectStoreContract(name: string, open: () => Promise<ObjectStore>): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let store: ObjectStore;

    beforeEach(async () => {
      store = await open();
    });

    afterEach(async () => {
      await store.close();
    });

    describe('writes and reads', () => {
      it('reads back what put wrote, whole, streamed and by size', async () => {
        const body = Buffer.from('<html><body>hello</body></html>');
        await store.put('bodies/1/ab/page.body', body, { contentType: 'text/html; charset=utf-8' });
        expect(await store.read('bodies/1/ab/page.body')).toEqual(body);
        expect(await drain(store.open('bodies/1/ab/page.body'))).toEqual(body);
        expect(await store.stat('bodies/1/ab/page.body')).toEqual({ bytes: body.length });
      });

      it('keeps every byte value, from put and from upload, and an empty object', async () => {
        const everyByte = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(10_000), Buffer.from('\r\n\0\u2028', 'utf8')]);
        await store.put('bin/put.bin', everyByte);
        expect(await store.upload('bin/upload.bin', Readable.from([everyByte.subarray(0, 7), everyByte.subarray(7)]))).toEqual({ bytes: everyByte.length });
        await store.put('bin/empty', Buffer.alloc(0));
        expect(await store.upload('bin/empty-upload', Readable.from([]))).toEqual({ bytes: 0 });
        expect(await store.read('bin/put.bin')).toEqual(everyByte);
        expect(await drain(store.open('bin/upload.bin'))).toEqual(everyByte);
        expect(await store.read('bin/empty')).toEqual(Buffer.alloc(0));
        expect(await store.stat('bin/empty-upload')).toEqual({ bytes: 0 });
      });

      it('uploads an object of several MB from a stream (several parts) and streams it back', async () => {
        const { source, bytes } = patterned(12 * MIB + 12_345);
        expect(await store.upload('exports/42.csv', source, { contentType: 'text/csv' })).toEqual({ bytes: bytes.length });
        expect(await store.stat('exports/42.csv')).toEqual({ bytes: bytes.length });
        expect(sha256(await drain(store.open('exports/42.csv')))).toBe(sha256(bytes));
        expect(sha256(await store.read('exports/42.csv'))).toBe(sha256(bytes));
      });

      it('writes many distinct keys at once, none mixed up with another', async () => {
        const bodies = Array.from({ length: 40 }, (_, i) => Buffer.from(`body ${i} ${'x'.repeat(i * 97)}`));
        await Promise.all([
          ...bodies.map((body, i) => (i % 4 === 0 ? store.upload(`many/${i}.body`, Readable.from([body])) : store.put(`many/${i}.body`, body))),
        ]);
        const read = await Promise.all(bodies.map((_, i) => store.read(`many/${i}.body`)));
        expect(read).toEqual(bodies);
        expect((await collect(store.list('many/'))).length).toBe(40);
      });
    });

    describe('writes that fail leave nothing', () => {
      it('publishes no object when beforeCommit throws, small or several parts, and rejects with its error', async () => {
        const lost = new Error('lease lost');
        await expect(store.upload('exports/small.csv', Readable.from([Buffer.from('a,b\n')]), { beforeCommit: () => { throw lost; } })).rejects.toBe(lost);
        await expect(store.upload('exports/large.csv', patterned(11 * MIB).source, { beforeCommit: () => { throw lost; } })).rejects.toBe(lost);
        expect(await store.stat('exports/small.csv')).toBeUndefined();
        expect(await store.stat('exports/large.csv')).toBeUndefined();
        await expect(store.read('exports/large.csv')).rejects.toBeInstanceOf(ObjectGoneError);
        expect(await collect(store.list(''))).toEqual([]);
      });

      it('calls beforeCommit once, after the whole source was read', async () => {
        const { source, bytes } = patterned(6 * MIB);
        let readWhenCalled = -1;
        let read = 0;
        source.on('data', (chunk: Buffer) => (read += chunk.length));
        const calls: number[] = [];
        await store.upload('exports/checked.csv', source, { beforeCommit: () => (calls.push(1), (readWhenCalled = read)) });
        expect(calls).toEqual([1]);
        expect(readWhenCalled).toBe(bytes.length);
      });

      it('publishes no object when the source fails half-way, and rejects with its error', async () => {
        const source = new PassThrough();
        const failure = new Error('render aborted');
        const written = store.upload('exports/broken.csv', source);
        source.write(randomBytes(6 * MIB), () => source.destroy(failure));
        await expect(written).rejects.toBe(failure);
        expect(await store.stat('exports/broken.csv')).toBeUndefined();
        expect(await collect(store.list(''))).toEqual([]);
      });
    });

    describe('publishing a local file', () => {
      it('publishes the file whole and consumes it; a beforeCommit that throws publishes nothing and consumes it too', async () => {
        const dir = mkdtempSync(path.join(tmpdir(), 'bpc-upload-file-'));
        try {
          const { bytes } = patterned(6 * MIB);
          writeFileSync(path.join(dir, 'done.csv'), bytes);
          expect(await store.uploadFile('exports/done.csv', path.join(dir, 'done.csv'))).toEqual({ bytes: bytes.length });
          expect(sha256(await store.read('exports/done.csv'))).toBe(sha256(bytes));
          writeFileSync(path.join(dir, 'lost.csv'), 'a,b\n');
          const lost = new Error('lease lost');
          await expect(store.uploadFile('exports/lost.csv', path.join(dir, 'lost.csv'), { beforeCommit: () => { throw lost; } })).rejects.toBe(lost);
          expect(await store.stat('exports/lost.csv')).toBeUndefined();
          expect(readdirSync(dir)).toEqual([]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      });
    });

    describe('missing objects', () => {
      it('fails read and open of a missing key with ObjectGoneError, and stat answers undefined', async () => {
        await expect(store.read('bodies/none.body')).rejects.toBeInstanceOf(ObjectGoneError);
        await expect(drain(store.open('bodies/none.body'))).rejects.toBeInstanceOf(ObjectGoneError);
        expect(await store.stat('bodies/none.body')).toBeUndefined();
      });

      it('removes objects, skips missing keys, and a second removal is no error', async () => {
        const keys = Array.from({ length: 25 }, (_, i) => `gone/${String(i).padStart(2, '0')}.body`);
        await Promise.all(keys.map((key) => store.put(key, Buffer.from(key))));
        await store.put('kept/1.body', Buffer.from('kept'));
        const removed = [...keys, 'gone/never-written.body'];
        await store.remove(removed);
        await store.remove(removed);
        await store.remove([]);
        expect(await collect(store.list('gone/'))).toEqual([]);
        await expect(store.read(keys[24])).rejects.toBeInstanceOf(ObjectGoneError);
        expect((await store.read('kept/1.body')).toString()).toBe('kept');
      });
    });

    describe('list', () => {
      it('lists every object under a prefix, nested ones included, with size and time, and nothing else', async () => {
        const before = Date.now() - 60_000;
        await store.put('exports/1.csv', Buffer.from('one'));
        await store.put('exports/2024/01/2.csv', Buffer.from('two!'));
        await store.put('exports-old/3.csv', Buffer.from('three'));
        await store.put('bodies/4.body', Buffer.from('four'));
        const listed = await collect(store.list('exports/'));
        expect(listed.map(({ key, bytes }) => ({ key, bytes }))).toEqual([
          { key: 'exports/1.csv', bytes: 3 },
          { key: 'exports/2024/01/2.csv', bytes: 4 },
        ]);
        for (const object of listed) expect(object.modifiedAt).toBeGreaterThan(before);
        expect((await collect(store.list('exports'))).map((o) => o.key)).toEqual(['exports-old/3.csv', 'exports/1.csv', 'exports/2024/01/2.csv']);
        expect((await collect(store.list('exports/2024/'))).map((o) => o.key)).toEqual(['exports/2024/01/2.csv']);
        expect((await collect(store.list(''))).length).toBe(4);
        expect(await collect(store.list('nothing/'))).toEqual([]);
      });

      it('does not list an upload still in progress, and lists it once done', async () => {
        const source = new PassThrough();
        const uploading = store.upload('exports/pending.csv', source);
        // More than a part: an S3 store has begun a multipart upload, the file store writes its temp file.
        await new Promise<void>((resolve) => source.write(randomBytes(6 * MIB), () => resolve()));
        await new Promise<void>((resolve) => (source.writableNeedDrain ? source.once('drain', resolve) : resolve()));
        expect(await collect(store.list(''))).toEqual([]);
        expect(await store.stat('exports/pending.csv')).toBeUndefined();
        source.end(Buffer.from('tail'));
        await uploading;
        expect((await collect(store.list(''))).map((o) => o.key)).toEqual(['exports/pending.csv']);
      });
    });

    describe('hostile keys', () => {
      it.each(HOSTILE_KEYS.map((key) => [JSON.stringify(key).slice(0, 40), key]))('refuses %s in every operation with a RangeError, writing nothing', async (_, key) => {
        const source = Readable.from([Buffer.from('x')]);
        await expect(store.put(key, Buffer.from('x'))).rejects.toBeInstanceOf(RangeError);
        await expect(store.upload(key, source)).rejects.toBeInstanceOf(RangeError);
        await expect(store.read(key)).rejects.toBeInstanceOf(RangeError);
        expect(() => store.open(key)).toThrow(RangeError);
        await expect(store.stat(key)).rejects.toBeInstanceOf(RangeError);
        await expect(store.remove(['fine.body', key])).rejects.toBeInstanceOf(RangeError);
        if (store.presignedUrl) await expect(store.presignedUrl(key, 60)).rejects.toBeInstanceOf(RangeError);
        expect(await collect(store.list(''))).toEqual([]);
      });

      it.each([['../'], ['/abs/'], ['a//'], ['a/../']])('refuses the listing prefix %j', async (prefix) => {
        await expect(collect(store.list(prefix))).rejects.toBeInstanceOf(RangeError);
      });

      it('removes no key of a batch that holds a hostile one', async () => {
        await store.put('fine.body', Buffer.from('x'));
        await expect(store.remove(['fine.body', '../x'])).rejects.toBeInstanceOf(RangeError);
        expect(await store.stat('fine.body')).toEqual({ bytes: 1 });
      });
    });

    describe('readiness', () => {
      it('answers check when the store is usable, and names where it is', async () => {
        await expect(store.check()).resolves.toBeUndefined();
        expect(store.location).toMatch(/^(file|s3):\/\//);
        expect(await collect(store.list(''))).toEqual([]);
      });
    });
  });
}
