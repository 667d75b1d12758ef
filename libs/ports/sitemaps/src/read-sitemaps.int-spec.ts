import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { AddressPolicy } from '@bpc/egress';
import { until } from '@bpc/testing';
import { SitemapReader } from './read-sitemaps';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface TestServer {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

async function serve(routes: Record<string, Handler>): Promise<TestServer> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    if (route) return route(req, res);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';
const urlset = (paths: string[], host = 'https://www.example.test') => `<?xml version="1.0" encoding="UTF-8"?><urlset ${NS}>${paths.map((p) => `<url><loc>${host}${p}</loc></url>`).join('')}</urlset>`;
const index = (locs: string[]) => `<sitemapindex ${NS}>${locs.map((l) => `<sitemap><loc>${l}</loc></sitemap>`).join('')}</sitemapindex>`;
const xml = (body: string | Buffer, headers: Record<string, string> = {}): Handler => (_req, res) => res.writeHead(200, { 'content-type': 'application/xml', ...headers }).end(body);
const redirect = (location: string): Handler => (_req, res) => res.writeHead(301, { location }).end();

describe('SitemapReader (real fetches from a local server)', () => {
  let origin: TestServer;
  let other: TestServer;
  let reader: SitemapReader;
  let site: { hostnames: string[]; origin: string };
  const timeout = 30_000;

  beforeAll(async () => {
    other = await serve({ '/sitemap.xml': xml(urlset(['/stolen'])) });
    origin = await serve({
      '/sitemap.xml': xml(urlset(['/a', '/b', '/a', '/c?x=1'])),
      '/index.xml': xml(index(['https://www.example.test/s1.xml.gz', 'https://www.example.test/s2.xml'])),
      '/s1.xml.gz': xml(gzipSync(urlset(['/g1', '/g2'])), { 'content-type': 'application/x-gzip' }),
      '/s2.xml': xml(gzipSync(urlset(['/p1']).replace('</urlset>', '<url><loc>https://elsewhere.test/off</loc></url></urlset>')), { 'content-encoding': 'gzip' }),
      '/moved.xml': redirect('/sitemap.xml'),
      '/moved-to-other-hostname.xml': redirect('https://example.test/sitemap.xml'),
      '/nested.xml': xml(index(['https://www.example.test/index.xml'])),
      '/page.html': (_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>hi</body></html>'),
      '/bomb.xml.gz': xml(gzipSync(Buffer.alloc(8 * 1024 * 1024, 0x20)), { 'content-type': 'application/gzip' }),
      '/lol.xml': xml('<!DOCTYPE x [<!ENTITY a "aaaa">]><urlset><url><loc>&a;</loc></url></urlset>'),
    });
    site = { hostnames: ['www.example.test', 'example.test'], origin: origin.url };
    reader = new SitemapReader({ addresses: new AddressPolicy(), limits: { maxXmlBytesPerFile: 1024 * 1024 } });
  });

  afterAll(async () => {
    await reader.close();
    await Promise.all([origin.close(), other.close()]);
  });

  it('reads a sitemap from the configured origin, counting duplicates', async () => {
    const read = await reader.read({ sitemapUrl: 'https://www.example.test/sitemap.xml', site });
    expect(read).toEqual({
      sitemapsRead: 1,
      urlsFound: 4,
      urls: ['https://www.example.test/a', 'https://www.example.test/b', 'https://www.example.test/c?x=1'],
      skipped: { offHost: 0, invalid: 0, overCap: 0, notModified: 0, duplicate: 1 },
    });
  }, timeout);

  it('reads an index of gzip files (magic bytes and Content-Encoding), off-host URLs counted', async () => {
    const read = await reader.read({ sitemapUrl: 'https://www.example.test/index.xml', site });
    expect(read.sitemapsRead).toBe(3);
    expect(read.urls).toEqual(['https://www.example.test/g1', 'https://www.example.test/g2', 'https://www.example.test/p1']);
    expect(read.skipped.offHost).toBe(1);
  }, timeout);

  it('follows redirects that stay on the website, to any of its hostnames', async () => {
    expect((await reader.read({ sitemapUrl: 'https://www.example.test/moved.xml', site })).urls).toHaveLength(3);
    expect((await reader.read({ sitemapUrl: 'https://www.example.test/moved-to-other-hostname.xml', site })).urls).toHaveLength(3);
  }, timeout);

  it('refuses a redirect to another host (another port of the same address included) without requesting it', async () => {
    const away = await serve({ '/moved-away.xml': redirect(`${other.url}/sitemap.xml`) });
    try {
      await expect(reader.read({ sitemapUrl: 'https://www.example.test/moved-away.xml', site: { ...site, origin: away.url } })).rejects.toThrow(/redirects to another host \(127\.0\.0\.1:\d+\)/);
      expect(other.requests).toEqual([]);
    } finally {
      await away.close();
    }
  }, timeout);

  it('refuses a sitemap on an internal address (a literal one before connecting, a name at connect time) when it is not the configured origin', async () => {
    // No origin configured: the sitemap is fetched from its own hostname, which is loopback.
    await expect(reader.read({ sitemapUrl: 'https://127.0.0.1/sitemap.xml', site: { hostnames: ['127.0.0.1'] } })).rejects.toThrow(/refused: .*internal address/);
    // A name that resolves to an internal address is refused where the connection is made.
    const rebinding = new SitemapReader({
      addresses: new AddressPolicy(),
      resolvers: { page: async () => [{ address: '127.0.0.1', family: 4 }], trusted: async () => [] },
    });
    try {
      // Said without the address: the answer must not tell a customer what the service's resolver makes of a name (an internal DNS oracle).
      await expect(rebinding.read({ sitemapUrl: 'https://sitemaps.example.test/sitemap.xml', site: { hostnames: ['sitemaps.example.test'] } })).rejects.toThrow(
        /^https:\/\/sitemaps\.example\.test\/sitemap\.xml: refused: sitemaps\.example\.test resolves to an internal address$/,
      );
    } finally {
      await rebinding.close();
    }
  }, timeout);

  it('refuses HTML, entity declarations, a gzip bomb, an index inside an index, a missing file, and sitemaps off the website', async () => {
    await expect(reader.read({ sitemapUrl: 'https://www.example.test/page.html', site })).rejects.toThrow(/HTML page/);
    await expect(reader.read({ sitemapUrl: 'https://www.example.test/lol.xml', site })).rejects.toThrow(/DOCTYPE/);
    await expect(reader.read({ sitemapUrl: 'https://www.example.test/bomb.xml.gz', site })).rejects.toThrow(/larger than 1 MiB uncompressed/);
    await expect(reader.read({ sitemapUrl: 'https://www.example.test/nested.xml', site })).rejects.toThrow(/sitemap index inside a sitemap index/);
    await expect(reader.read({ sitemapUrl: 'https://www.example.test/missing.xml', site })).rejects.toThrow(/answered HTTP 404/);
    await expect(reader.read({ sitemapUrl: 'https://elsewhere.test/sitemap.xml', site })).rejects.toThrow(/not one of the website's hostnames/);
  }, timeout);

  it("reads an index's sitemaps 4 at a time, in index order, never more than 8 ahead of a slow first one", async () => {
    const children = Array.from({ length: 10 }, (_, i) => `/c${i}.xml`);
    const order: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const routes: Record<string, Handler> = { '/many.xml': xml(index(children.map((c) => `https://www.example.test${c}`))) };
    children.forEach((child, i) => {
      routes[child] = (req, res) => {
        order.push(child);
        // The first file answers only once the 7 after it have been asked for: the reader must wait for it before an 9th.
        if (order.length === 8) releaseFirst();
        const answer = () => void res.writeHead(200, { 'content-type': 'application/xml' }).end(urlset([`/p${i}`]));
        if (i === 0) void firstHeld.then(() => (order.push('c0 answered'), answer()));
        else answer();
      };
    });
    const many = await serve(routes);
    try {
      const read = await reader.read({ sitemapUrl: 'https://www.example.test/many.xml', site: { ...site, origin: many.url } });
      expect(read.urls).toEqual(children.map((_, i) => `https://www.example.test/p${i}`));
      expect(read.sitemapsRead).toBe(11);
      expect(order.indexOf('c0 answered')).toBeLessThan(order.indexOf('/c8.xml'));
    } finally {
      await many.close();
    }
  }, timeout);

  it('runs at most concurrentCalls calls at once; the others wait their turn', async () => {
    let open = 0;
    let most = 0;
    const releases: (() => void)[] = [];
    const slow = await serve({
      '/sitemap.xml': (_req, res) => {
        open += 1;
        most = Math.max(most, open);
        releases.push(() => (open -= 1, res.writeHead(200, { 'content-type': 'application/xml' }).end(urlset(['/a']))));
      },
    });
    const two = new SitemapReader({ addresses: new AddressPolicy(), limits: { concurrentCalls: 2, maxCallsPerSite: 5 } });
    try {
      const calls = Array.from({ length: 5 }, () => two.read({ sitemapUrl: 'https://www.example.test/sitemap.xml', site: { ...site, origin: slow.url } }));
      for (let answered = 0; answered < 5; answered++) {
        await until(() => releases.length > 0, { timeoutMs: 10_000 });
        releases.shift()!();
      }
      expect((await Promise.all(calls)).map((r) => r.urls)).toEqual(Array(5).fill(['https://www.example.test/a']));
      expect(most).toBe(2);
    } finally {
      await two.close();
      await slow.close();
    }
  }, timeout);

  it('refuses a website a third call while two of its calls run or wait, and any call past the waiting places, without fetching', async () => {
    const releases: (() => void)[] = [];
    const slow = await serve({
      '/sitemap.xml': (_req, res) => void releases.push(() => res.writeHead(200, { 'content-type': 'application/xml' }).end(urlset(['/a'], 'https://one.example.test').replace('</urlset>', '<url><loc>https://two.example.test/a</loc></url></urlset>'))),
    });
    const small = new SitemapReader({ addresses: new AddressPolicy(), limits: { concurrentCalls: 1, maxWaitingCalls: 1, maxCallsPerSite: 2 } });
    const of = (hostname: string) => ({ sitemapUrl: `https://${hostname}/sitemap.xml`, site: { hostnames: [hostname], origin: slow.url } });
    try {
      const first = small.read(of('one.example.test'));
      const second = small.read(of('one.example.test'));
      await expect(small.read(of('ONE.example.test'))).rejects.toThrow(/already has 2 sitemap recaches running or waiting/);
      // Another website: one place running, the one waiting place taken.
      await expect(small.read(of('two.example.test'))).rejects.toThrow(/sitemap reader is busy/);
      await until(() => releases.length === 1, { timeoutMs: 10_000 });
      releases.shift()!();
      await until(() => releases.length === 1, { timeoutMs: 10_000 });
      releases.shift()!();
      expect((await Promise.all([first, second])).map((r) => r.urls)).toEqual([['https://one.example.test/a'], ['https://one.example.test/a']]);
      // Places are given back, refused calls included.
      const again = small.read(of('two.example.test'));
      await until(() => releases.length === 1, { timeoutMs: 10_000 });
      releases.shift()!();
      expect((await again).urls).toEqual(['https://two.example.test/a']);
      expect(slow.requests).toEqual(['/sitemap.xml', '/sitemap.xml', '/sitemap.xml']);
    } finally {
      await small.close();
      await slow.close();
    }
  }, timeout);

  it('times a file out', async () => {
    const silent = await serve({ '/slow.xml': () => undefined });
    const impatient = new SitemapReader({ addresses: new AddressPolicy(), limits: { fileTimeoutMs: 200 } });
    try {
      await expect(impatient.read({ sitemapUrl: 'https://www.example.test/slow.xml', site: { ...site, origin: silent.url } })).rejects.toThrow(/timed out/);
    } finally {
      await impatient.close();
      await silent.close();
    }
  }, timeout);
});
