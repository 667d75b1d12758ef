import { randomBytes } from 'node:crypto';
import type { CacheEntry, CacheHit } from '@bpc/cache-store';
import { PageBodies, titleOf } from './page-bodies';

const MB = 1024 * 1024;
/** The budget and per-body limit of `PageBodies`. */
const BUDGET = 64 * MB;
const BODY_LIMIT = 8 * MB;

/** A hit on a body file whose read completes a turn later, as a file read does; `reads` counts the reads. */
function hitOf(bodyPath: string, body: Buffer, contentType = 'text/html; charset=utf-8'): CacheHit & { readonly reads: jest.Mock } {
  const reads = jest.fn(async () => {
    await new Promise((resolve) => setImmediate(resolve));
    return body;
  });
  const entry = { bodyPath, headers: { 'content-type': contentType } } as unknown as CacheEntry;
  return {
    entry,
    reads,
    readBody: reads,
    openBody: () => {
      throw new Error('not used');
    },
  };
}

describe('titleOf', () => {
  it('reads the title of an HTML page', () => {
    expect(titleOf(Buffer.from('<html><head><title>\n  Pricing &amp; plans </title></head></html>'), 'text/html; charset=utf-8')).toBe('Pricing & plans');
  });

  it('is empty without a title or for other content types', () => {
    expect(titleOf(Buffer.from('<html><body>x</body></html>'), 'text/html')).toBe('');
    expect(titleOf(Buffer.from('<title>x</title>'), 'application/json')).toBe('');
  });

  it.each([
    ['<title', 64 * 1024],
    ['<title', MB],
    ['<TiTlE ', 64 * 1024],
    ['<title>x</title', 64 * 1024],
    ['<title>x</title', MB],
  ])('answers a page of repeated %j (%d bytes) in linear time', (piece, size) => {
    const hostile = Buffer.from(piece.repeat(Math.ceil(size / piece.length)));
    // CPU time, not wall-clock time: what other processes take on a busy machine does not count (quadratic would be seconds).
    const started = process.cpuUsage();
    expect(titleOf(hostile, 'text/html')).toBe('');
    const { user, system } = process.cpuUsage(started);
    expect((user + system) / 1000).toBeLessThan(50);
  });
});

describe('PageBodies', () => {
  it('reads a page once for concurrent first reads, and counts it once', async () => {
    const bodies = new PageBodies();
    const page = hitOf('page.body', Buffer.alloc(MB, 'a'));
    const served = await Promise.all(Array.from({ length: 100 }, () => bodies.of(page)));
    expect(page.reads).toHaveBeenCalledTimes(1);
    expect(new Set(served).size).toBe(1);

    const smallRaw = Buffer.from('<title>Small</title>');
    const small = hitOf('small.body', smallRaw);
    await bodies.of(small);
    await bodies.of(small);
    expect(small.reads).toHaveBeenCalledTimes(1);
    expect(bodies.usage()).toEqual({ entries: 2, bytes: MB + smallRaw.length });
  });

  it('does not count the gzipped form of a body it evicted', async () => {
    const bodies = new PageBodies();
    const raw = Buffer.alloc(BODY_LIMIT);
    const pages = Array.from({ length: BUDGET / BODY_LIMIT + 1 }, (_, i) => hitOf(`p${i}.body`, raw));
    const evicted = await bodies.of(pages[0]);
    for (const page of pages.slice(1)) await bodies.of(page);

    bodies.gzipped(evicted);

    for (const page of pages.slice(1)) await bodies.of(page);
    for (const page of pages.slice(1)) expect(page.reads).toHaveBeenCalledTimes(1);
    expect(bodies.usage()).toEqual({ entries: pages.length - 1, bytes: BUDGET });
  });

  it('does not count the gzipped form of a body over the per-body limit that it cannot keep', async () => {
    const bodies = new PageBodies();
    const raw = Buffer.alloc(BODY_LIMIT);
    const pages = Array.from({ length: BUDGET / BODY_LIMIT - 1 }, (_, i) => hitOf(`p${i}.body`, raw));
    for (const page of pages) await bodies.of(page);
    // Random bytes do not compress: the gzipped form is over the per-body limit too.
    const oversized = hitOf('oversized.body', randomBytes(BODY_LIMIT + 1));

    expect(bodies.gzipped(await bodies.of(oversized)).length).toBeGreaterThan(BODY_LIMIT);

    for (const page of pages) await bodies.of(page);
    for (const page of pages) expect(page.reads).toHaveBeenCalledTimes(1);
    expect(bodies.usage()).toEqual({ entries: pages.length, bytes: pages.length * BODY_LIMIT });
  });

  it('keeps the title and gzipped form of a body over the per-body limit, so later hits do not compress it again', async () => {
    const bodies = new PageBodies();
    const oversized = hitOf('oversized.body', Buffer.concat([Buffer.from('<title>Big</title>'), Buffer.alloc(BODY_LIMIT)]));

    const first = await bodies.of(oversized);
    const gzipped = bodies.gzipped(first);
    const later = await bodies.of(oversized);

    expect(bodies.gzipped(later)).toBe(gzipped);
    expect(later.title).toBe('Big');
    expect(later.raw.length).toBe(BODY_LIMIT + 18);
    expect(oversized.reads).toHaveBeenCalledTimes(2);
    expect(bodies.usage()).toEqual({ entries: 1, bytes: gzipped.length });
  });

  it('keeps to a configured budget and its per-body limit (an eighth of it)', async () => {
    const bodies = new PageBodies(8 * MB);
    const within = hitOf('within.body', Buffer.alloc(MB));
    const over = hitOf('over.body', Buffer.alloc(MB + 1));
    for (let i = 0; i < 2; i++) await Promise.all([bodies.of(within), bodies.of(over)]);
    expect([within.reads.mock.calls.length, over.reads.mock.calls.length]).toEqual([1, 2]);
    const fill = Array.from({ length: 8 }, (_, i) => hitOf(`fill-${i}.body`, Buffer.alloc(MB)));
    for (const page of fill) await bodies.of(page);
    expect(bodies.usage()).toEqual({ entries: 8, bytes: 8 * MB });
  });

  it('still fills its whole budget after many concurrent reads and gzips of kept, evicted and oversized bodies', async () => {
    const bodies = new PageBodies();
    const raw = Buffer.alloc(2 * MB, '<p>x</p>');
    const oversized = Buffer.alloc(BODY_LIMIT + 1, '<p>y</p>');
    const served = [];
    for (let round = 0; round < 40; round++) {
      const page = hitOf(`round-${round}.body`, raw);
      const body = (await Promise.all(Array.from({ length: 10 }, () => bodies.of(page))))[0];
      served.push(body);
      bodies.gzipped(body);
      if (round >= 35) bodies.gzipped(served[round - 35]);
      if (round % 4 === 0) bodies.gzipped(await bodies.of(hitOf(`oversized-${round}.body`, oversized)));
    }

    // Exactly the budget: if the count were above what is held, the first of these would be evicted to make room for the last.
    const fill = Array.from({ length: BUDGET / raw.length }, (_, i) => hitOf(`fill-${i}.body`, raw));
    for (const page of fill) await bodies.of(page);
    for (const page of fill) await bodies.of(page);
    for (const page of fill) expect(page.reads).toHaveBeenCalledTimes(1);
    expect(bodies.usage()).toEqual({ entries: fill.length, bytes: BUDGET });
  });
});
