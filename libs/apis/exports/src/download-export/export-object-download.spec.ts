import { PassThrough, Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { AppError } from '@bpc/domain';
import { ObjectGoneError, ObjectStoreUnavailableError } from '@bpc/object-store';
import { downloadErrorOf, presignedLifetimeS, readableOrFailed } from './export-object-download';

describe('presignedLifetimeS', () => {
  const now = 1_000_000_000_000;
  it("is what is left of the link, capped at 15 minutes, never below a second", () => {
    expect(presignedLifetimeS(now / 1000 + 120, now)).toBe(120);
    expect(presignedLifetimeS(now / 1000 + 3600, now)).toBe(900);
    expect(presignedLifetimeS(now / 1000 + 0.5, now + 400)).toBe(1);
  });
});

describe('downloadErrorOf', () => {
  it('answers a missing object 410 DOWNLOAD_LINK_EXPIRED', () => {
    expect(downloadErrorOf(new ObjectGoneError('object exports/1.csv is gone'))).toMatchObject({ code: 'DOWNLOAD_LINK_EXPIRED' });
  });

  it.each([new ObjectStoreUnavailableError('connect ECONNREFUSED 10.0.0.1:9000'), Object.assign(new Error('EIO: i/o error'), { code: 'EIO' })])(
    'answers a store failure 503 STORE_UNAVAILABLE, its own message only as the cause (%s)',
    (error) => {
      const answer = downloadErrorOf(error);
      expect(answer).toMatchObject({ code: 'STORE_UNAVAILABLE' });
      expect(answer.message).not.toContain(error.message);
      expect(answer.cause).toBe(error);
    },
  );

  it('passes an AppError through', () => {
    const error = new AppError('DOWNLOAD_LINK_INVALID', 'x');
    expect(downloadErrorOf(error)).toBe(error);
  });
});

describe('readableOrFailed', () => {
  it('resolves with the stream once it has bytes, which then flow whole', async () => {
    const stream = await readableOrFailed(Readable.from([Buffer.from('a,b\r\n'), Buffer.from('1,2\r\n')]));
    expect(await text(stream)).toBe('a,b\r\n1,2\r\n');
  });

  it('resolves for an empty stream', async () => {
    expect(await text(await readableOrFailed(Readable.from([])))).toBe('');
  });

  it('rejects with the error the stream fails with before its first bytes', async () => {
    const stream = new PassThrough();
    setImmediate(() => stream.destroy(new ObjectGoneError('gone')));
    await expect(readableOrFailed(stream)).rejects.toBeInstanceOf(ObjectGoneError);
  });
});
