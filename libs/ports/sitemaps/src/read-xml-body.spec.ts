import { brotliCompressSync, gzipSync } from 'node:zlib';
import { readXmlBody } from './read-xml-body';
import { SitemapRefused } from './sitemap-limits';

const limits = { maxTransferBytesPerFile: 1024 * 1024, maxXmlBytesPerFile: 1024 * 1024 };

async function* inChunks(buffer: Buffer, size = 7): AsyncIterable<Uint8Array> {
  for (let at = 0; at < buffer.length; at += size) yield buffer.subarray(at, at + size);
}

async function read(body: Buffer, encoding?: string, custom = limits): Promise<string> {
  let text = '';
  await readXmlBody(inChunks(body), encoding, custom, (piece) => (text += piece));
  return text;
}

const xml = '<?xml version="1.0"?><urlset><url><loc>https://e.com/é</loc></url></urlset>';

describe('readXmlBody', () => {
  it('reads plain UTF-8, split anywhere (multi-byte characters included), BOM dropped', async () => {
    expect(await read(Buffer.from(xml))).toBe(xml);
    expect(await read(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(xml)]))).toBe(xml);
  });

  it('gunzips a .gz file by its magic bytes, and undoes Content-Encoding (gzip, br, both)', async () => {
    expect(await read(gzipSync(xml))).toBe(xml);
    expect(await read(gzipSync(xml), 'gzip')).toBe(xml);
    expect(await read(brotliCompressSync(Buffer.from(xml)), 'br')).toBe(xml);
    expect(await read(gzipSync(gzipSync(xml)), 'gzip')).toBe(xml);
  });

  it('stops a gzip bomb at the uncompressed cap', async () => {
    // 1 GiB of zeros would be ~1 MB compressed; 64 MiB is enough to show the cap holds (it stops after ~1 MiB).
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    const started = process.memoryUsage().rss;
    await expect(read(bomb)).rejects.toThrow(new SitemapRefused('the file is larger than 1 MiB uncompressed'));
    expect(process.memoryUsage().rss - started).toBeLessThan(48 * 1024 * 1024);
  });

  it('stops a huge body at the transfer cap', async () => {
    await expect(read(Buffer.alloc(2 * 1024 * 1024, 0x20))).rejects.toThrow(/larger than 1 MiB as sent/);
  });

  it('refuses corrupt compression, unknown encodings and text that is not UTF-8', async () => {
    const corrupt = gzipSync(xml);
    corrupt[corrupt.length - 5] ^= 0xff;
    await expect(read(corrupt)).rejects.toThrow(/corrupt/);
    await expect(read(Buffer.from(xml), 'compress')).rejects.toThrow(/Content-Encoding compress/);
    await expect(read(Buffer.from([0x3c, 0x61, 0xff, 0xfe, 0x3e]))).rejects.toThrow(/not UTF-8/);
  });
});
