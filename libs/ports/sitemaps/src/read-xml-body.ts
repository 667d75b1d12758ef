import { Readable, pipeline, type Duplex } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { SitemapRefused, type SitemapLimits } from './sitemap-limits';

type BodyLimits = Pick<SitemapLimits, 'maxTransferBytesPerFile' | 'maxXmlBytesPerFile'>;

const MIB = 1024 * 1024;

/**
 * A sitemap body as UTF-8 text, handed to `sink` piece by piece so that no
 * more than a chunk is held: the `Content-Encoding` undone, then a gzip
 * file (`sitemap.xml.gz`, known by its magic bytes whatever the headers say)
 * decompressed. Both sizes are capped while reading — the bytes that arrive,
 * and the XML they decompress to — so a gzip bomb stops at the cap rather
 * than at the end of memory. Refuses (`SitemapRefused`) an encoding it does
 * not know, a body over a cap, broken compression, and text that is not UTF-8
 * (the encoding sitemaps.org requires).
 */
export async function readXmlBody(body: AsyncIterable<Uint8Array>, contentEncoding: string | undefined, limits: BodyLimits, sink: (text: string) => void): Promise<void> {
  const transferred = capped(body, limits.maxTransferBytesPerFile, (cap) => `the file is larger than ${cap / MIB} MiB as sent`);
  const decoded = gunzippedWhenGzip(withContentDecoding(transferred, contentEncoding));
  const xml = capped(decoded, limits.maxXmlBytesPerFile, (cap) => `the file is larger than ${cap / MIB} MiB uncompressed`);
  const text = new TextDecoder('utf-8', { fatal: true });
  try {
    for await (const chunk of xml) sink(text.decode(chunk, { stream: true }));
    sink(text.decode());
  } catch (error) {
    if (error instanceof SitemapRefused) throw error;
    if ((error as { code?: string }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') throw new SitemapRefused('the file is not UTF-8 text');
    if ((error as { code?: string }).code?.startsWith('Z_')) throw new SitemapRefused(`the compressed file is corrupt (${(error as Error).message})`);
    throw error;
  }
}

async function* capped(source: AsyncIterable<Uint8Array>, cap: number, refusal: (cap: number) => string): AsyncIterable<Uint8Array> {
  let size = 0;
  for await (const chunk of source) {
    size += chunk.byteLength;
    if (size > cap) throw new SitemapRefused(refusal(cap));
    yield chunk;
  }
}

function withContentDecoding(source: AsyncIterable<Uint8Array>, contentEncoding: string | undefined): AsyncIterable<Uint8Array> {
  // Several codings apply in the order listed, so they are undone last first.
  const codings = (contentEncoding ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity').reverse();
  return codings.reduce((stream, coding) => through(stream, decompressorFor(coding)), source);
}

function decompressorFor(coding: string): Duplex {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip();
    case 'deflate':
      return createInflate();
    case 'br':
      return createBrotliDecompress();
    default:
      throw new SitemapRefused(`the file is sent with Content-Encoding ${coding}, which is not supported`);
  }
}

const GZIP_MAGIC = [0x1f, 0x8b];

/** The stream itself, or gunzipped when it starts with gzip's magic bytes (a `.xml.gz` file served as it is). */
async function* gunzippedWhenGzip(source: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  let head: Buffer = Buffer.alloc(0);
  try {
    while (head.length < GZIP_MAGIC.length) {
      const next = await iterator.next();
      if (next.done) break;
      head = Buffer.concat([head, next.value]);
    }
    const all = (async function* () {
      if (head.length > 0) yield head;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    })();
    yield* head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1] ? through(all, createGunzip()) : all;
  } finally {
    await iterator.return?.();
  }
}

/** `source` through a transform; an error on either side ends the iteration with it, and stopping early stops the source. */
function through(source: AsyncIterable<Uint8Array>, stage: Duplex): AsyncIterable<Uint8Array> {
  // The stage carries the error to whoever iterates it; the callback is only there so pipeline does not throw it again.
  pipeline(Readable.from(source, { objectMode: false }), stage, () => undefined);
  return stage;
}
