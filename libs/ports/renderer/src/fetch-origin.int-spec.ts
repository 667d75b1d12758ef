import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { FileCacheStore } from '@bpc/cache-store';
import { HostCatalog } from '@bpc/domain';
import { ChromiumTabPool } from './chromium-tab-pool';
import { AddressPolicy, checkedDispatcher } from '@bpc/egress';
import { fetchOrigin } from './fetch-origin';
import { MAX_PAGE_BYTES, PageFailure } from './fetched-page';
import { CachingPageRefresher } from './page-refresher';
import { DESKTOP_BOT_USER_AGENT } from './refresh-rules';
import { FileObjectStore } from '@bpc/object-store';

interface Listening {
  readonly server: Server;
  readonly url: string;
  readonly port: number;
  /** Request targets as they arrived on the wire (`req.url`, not parsed). */
  readonly targets: string[];
}

async function listen(handler: RequestListener): Promise<Listening> {
  const targets: string[] = [];
  const server = createServer((req, res) => {
    targets.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}`, port, targets };
}

async function close(listening: Listening | undefined): Promise<void> {
  if (!listening) return;
  listening.server.closeAllConnections();
  await new Promise<void>((resolve) => listening.server.close(() => resolve()));
}

/** Real HTTP servers on loopback, the real `fetch`; Chromium is never started (bypass only). */
describe('origin fetch (bypass) against real HTTP servers', () => {
  describe('a page path that reads as another host', () => {
    let origin: Listening;
    let internal: Listening;
    let directory: string;
    let store: FileCacheStore;
    let refresher: CachingPageRefresher;

    beforeAll(async () => {
      const answer = (body: string): RequestListener => (_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(body);
      };
      origin = await listen(answer('<p>origin page</p>'));
      internal = await listen(answer('<p>internal secret</p>'));
      directory = mkdtempSync(path.join(tmpdir(), 'bpc-fetch-origin-'));
      store = await FileCacheStore.open({ directory, objects: new FileObjectStore(directory), bodyPrefix: '', bodyRemovalDelayMs: 0 });
      const catalog = new HostCatalog([
        {
          host_id: 1,
          hostnames: ['www.example.test'],
          origin: origin.url,
          cache_ttl: 3600,
          dimensions: [{ id: 1, name: 'desktop', match: { fallback: true }, action: 'bypass' }],
          url_rules: [],
        },
      ]);
      refresher = new CachingPageRefresher({ catalog, store, pool: new ChromiumTabPool({ tabs: 1, reservationPercent: 0 }) });
    });

    afterAll(async () => {
      await refresher?.close();
      await store?.close();
      await close(origin);
      await close(internal);
      if (directory) rmSync(directory, { recursive: true, force: true });
    });

    it('is fetched from the configured origin with that path, never from the host the path names', async () => {
      const url = `https://www.example.test//127.0.0.1:${internal.port}/secret`;
      const outcome = await refresher.refresh({ hostId: 1, url, dimensionId: 1 }, { signal: AbortSignal.timeout(10_000), purpose: 'recache' });
      expect(outcome).toMatchObject({ kind: 'stored', cacheKind: 'bypass', statusCode: 200 });
      expect(origin.targets).toEqual([`//127.0.0.1:${internal.port}/secret`]);
      expect(internal.targets).toEqual([]);
      const stored = await store.get(1, url, 1);
      expect((await stored!.readBody()).toString()).toBe('<p>origin page</p>');
    });
  });

  describe('an answer that decodes to more than the limit', () => {
    const MiB = 1024 * 1024;
    // A gzip body may hold several members, decoded one after the other: 40 members of 1 MiB of zeros
    // (about 1 KB each) make a 40 KB answer decoding to 40 MiB, built without holding 40 MiB here.
    const member = gzipSync(Buffer.alloc(MiB), { level: 9 });
    const members = 40;
    let bomber: Listening;
    let closedAfter: Promise<{ finished: boolean }>;

    beforeAll(async () => {
      let reportClose: (value: { finished: boolean }) => void = () => undefined;
      closedAfter = new Promise((resolve) => (reportClose = resolve));
      bomber = await listen((_req, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': String(member.length * members) });
        // Just past the limit, and the rest only once the client has hung up (so never): a client that waited for
        // the whole body would wait until its signal ends, however fast or slow this machine is.
        const pastTheLimit = MAX_PAGE_BYTES / MiB + 1;
        for (let sent = 0; sent < pastTheLimit; sent++) res.write(member);
        res.on('close', () => reportClose({ finished: res.writableFinished }));
      });
    });

    afterAll(() => close(bomber));

    it('fails with the size as the reason, closing the connection before the rest is sent and without buffering it', async () => {
      expect(MAX_PAGE_BYTES).toBe(16 * MiB);
      const before = process.memoryUsage().arrayBuffers;
      let peak = before;
      const sample = (): void => void (peak = Math.max(peak, process.memoryUsage().arrayBuffers));
      const sampler = setInterval(sample, 2);
      const fetching = fetchOrigin({
        url: new URL(`${bomber.url}/page`),
        publicUrl: new URL('https://www.example.test/page'),
        userAgent: DESKTOP_BOT_USER_AGENT,
        signal: AbortSignal.timeout(10_000),
        dispatcher: checkedDispatcher({ trustedOrigin: new URL(bomber.url), addresses: new AddressPolicy() }),
      });
      try {
        await expect(fetching).rejects.toThrow(PageFailure);
        await expect(fetching).rejects.toThrow('body larger than 16 MiB');
      } finally {
        sample();
        clearInterval(sampler);
      }
      const closed = await closedAfter;
      expect(closed.finished).toBe(false);
      // Reading it whole peaks near 80 MiB (the chunks, then the joined body); read bounded, it stays
      // near twice the limit (the chunks kept, decoder buffers not yet collected).
      expect(peak - before).toBeLessThan(60 * MiB);
    });
  });
});
