import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileCacheStore } from '@bpc/cache-store';
import { HostCatalog, type HostDefinition } from '@bpc/domain';
import { startTestDnsServer, type TestDnsServer } from '@bpc/testing';
import { ChromiumTabPool } from './chromium-tab-pool';
import { AddressPolicy, dnsResolve, systemResolve } from '@bpc/egress';
import { CachingPageRefresher } from './page-refresher';
import type { RefreshJob } from './page-refresher.port';
import { FileObjectStore } from '@bpc/object-store';

/** A server that must never be reached: it counts every TCP connection and every UDP datagram, whatever they carry. */
interface Canary {
  readonly port: number;
  readonly udpPort: number;
  readonly connections: number;
  readonly datagrams: number;
  close(): Promise<void>;
}

async function startCanary(): Promise<Canary> {
  let connections = 0;
  let datagrams = 0;
  const server: Server = createServer((_req, res) => res.end('<p>INTERNAL SECRET</p>'));
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const udp: UdpSocket = createSocket('udp4');
  udp.on('message', () => (datagrams += 1));
  await new Promise<void>((resolve) => udp.bind(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    udpPort: udp.address().port,
    get connections() {
      return connections;
    },
    get datagrams() {
      return datagrams;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    },
  };
}

/** Pages that try every way a page has to make the browser reach an internal address. */
function hostilePages(canary: Canary): Record<string, { status?: number; headers?: Record<string, string>; html: string }> {
  const inside = `http://127.0.0.1:${canary.port}`;
  const page = (body: string, head = '') => `<!DOCTYPE html><html><head><title>hostile</title>${head}</head><body><p>customer page</p>${body}</body></html>`;
  return {
    '/script-navigation': { html: page(`<script>location.href = '${inside}/metrics';</script>`) },
    '/meta-refresh': { html: page('', `<meta http-equiv="refresh" content="0;url=${inside}/metrics">`) },
    '/timed-navigation': { html: page(`<script>setTimeout(() => { location.assign('${inside}/docs/openapi.json'); }, 50);</script>`) },
    '/origin-redirect': { status: 302, headers: { location: `${inside}/metrics` }, html: '' },
    '/iframe': { html: page(`<iframe src="${inside}/frame"></iframe>`) },
    '/stylesheet': { html: page('', `<link rel="stylesheet" href="${inside}/style.css"><link rel="prefetch" href="${inside}/prefetch">`) },
    '/fetch': {
      html: page(
        `<div id="out">waiting</div><script>
          const inside = '${inside}';
          const tries = [
            fetch(inside + '/api').then((r) => r.text()),
            new Promise((resolve, reject) => { const x = new XMLHttpRequest(); x.open('GET', inside + '/xhr'); x.onload = () => resolve(x.responseText); x.onerror = reject; x.send(); }),
            new Promise((resolve, reject) => { const ws = new WebSocket('ws://127.0.0.1:${canary.port}/ws'); ws.onopen = resolve; ws.onerror = reject; }),
            new Promise((resolve, reject) => { const es = new EventSource(inside + '/events'); es.onmessage = resolve; es.onerror = () => { es.close(); reject(); }; }),
          ];
          navigator.sendBeacon(inside + '/beacon', 'x');
          Promise.allSettled(tries).then((all) => { document.getElementById('out').textContent = all.map((t) => t.status + ':' + (t.value ?? '')).join(' '); });
        </script>`,
      ),
    },
    '/by-name': {
      html: page(
        `<div id="out">waiting</div><iframe src="http://localhost:${canary.port}/frame"></iframe><iframe src="http://canary.test:${canary.port}/frame"></iframe><script>
          fetch('http://canary.test:${canary.port}/api').then((r) => r.text(), () => 'refused').then((t) => { document.getElementById('out').textContent = t; });
        </script>`,
      ),
    },
    // What the page gets back through the proxy is the page's to shape, its status line included.
    '/malformed-answers': {
      html: page(`<div id="out">waiting</div><script>
        Promise.allSettled(['/raw/reason', '/raw/status'].map((path) => fetch(path))).then(() => { document.getElementById('out').textContent = 'survived'; });
      </script>`),
    },
    '/service-worker': {
      html: page(`<div id="out">waiting</div><script>
        navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(() => { document.getElementById('out').textContent = 'worker ready'; }, (e) => { document.getElementById('out').textContent = 'no worker: ' + e; });
      </script>`),
    },
    '/sw.js': {
      headers: { 'content-type': 'text/javascript' },
      html: `self.addEventListener('install', (e) => e.waitUntil(fetch('${inside}/from-worker').catch(() => undefined)));`,
    },
    '/webrtc': {
      html: page(`<div id="out">waiting</div><script>
        const pc = new RTCPeerConnection({ iceServers: [{ urls: 'stun:127.0.0.1:${canary.udpPort}' }] });
        pc.createDataChannel('d');
        pc.onicegatheringstatechange = () => { if (pc.iceGatheringState === 'complete') document.getElementById('out').textContent = 'gathered'; };
        pc.createOffer().then((offer) => pc.setLocalDescription(offer));
      </script>`),
    },
  };
}

/**
 * Real Chromium and a real origin on loopback whose pages try to reach a
 * canary on another loopback port: the origin is the host's configured
 * origin (allowed), the canary is on the same address (not allowed).
 */
describe('a render reaches nothing internal but its own configured origin', () => {
  const PUBLIC = 'https://www.example.test';
  let canary: Canary;
  let dns: TestDnsServer;
  let origin: Server;
  let directory: string;
  let store: FileCacheStore;
  let refresher: CachingPageRefresher;

  beforeAll(async () => {
    canary = await startCanary();
    // Public DNS as the page's names see it: names an attacker points at our loopback.
    dns = await startTestDnsServer({ 'canary.test': ['127.0.0.1'], 'internal.test': ['127.0.0.1', '::1'] });
    const pages = hostilePages(canary);
    origin = createServer((req, res) => {
      const pathname = new URL(req.url ?? '/', 'http://origin').pathname;
      if (pathname === '/raw/reason') return void req.socket.end('HTTP/1.1 200 \x01\x7f\r\ncontent-length: 2\r\n\r\nok');
      if (pathname === '/raw/status') return void req.socket.end('HTTP/1.1 099 Odd\r\ncontent-length: 2\r\n\r\nok');
      const found = pages[pathname];
      if (!found) return void res.writeHead(404).end('no such page');
      res.writeHead(found.status ?? 200, { 'content-type': 'text/html; charset=utf-8', ...found.headers });
      res.end(found.html);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    directory = mkdtempSync(path.join(tmpdir(), 'bpc-render-egress-'));
    store = await FileCacheStore.open({ directory, objects: new FileObjectStore(directory), bodyPrefix: '', bodyRemovalDelayMs: 0 });
    const dimensions = [
      { id: 1, name: 'desktop', match: { fallback: true }, action: 'render' },
      { id: 2, name: 'fetch', match: { user_agent: 'fetch', fallback: false }, action: 'bypass' },
    ] as const;
    const hosts: HostDefinition[] = [
      { host_id: 1, hostnames: ['www.example.test'], origin: `http://127.0.0.1:${(origin.address() as AddressInfo).port}`, cache_ttl: 3600, dimensions: [...dimensions], url_rules: [] },
      // No origin configured: fetched from https://internal.test, a name the customer's DNS points at our loopback.
      { host_id: 2, hostnames: ['internal.test'], cache_ttl: 3600, dimensions: [...dimensions], url_rules: [] },
    ];
    const resolvers = { page: dnsResolve(() => dns.resolver()), trusted: systemResolve };
    const addresses = new AddressPolicy();
    const pool = new ChromiumTabPool({ tabs: 2, reservationPercent: 0, addresses, resolvers });
    refresher = new CachingPageRefresher({ catalog: new HostCatalog(hosts), store, pool, addresses, resolvers });
  });

  afterAll(async () => {
    await refresher?.close();
    await store?.close();
    origin?.closeAllConnections();
    await new Promise<void>((resolve) => (origin ? origin.close(() => resolve()) : resolve()));
    await canary?.close();
    await dns?.close();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  let before = { connections: 0, datagrams: 0 };
  beforeEach(() => (before = { connections: canary.connections, datagrams: canary.datagrams }));
  afterEach(() => {
    expect({ connections: canary.connections - before.connections, datagrams: canary.datagrams - before.datagrams }).toEqual({ connections: 0, datagrams: 0 });
  });

  const job = (pathname: string, overrides: Partial<RefreshJob> = {}): RefreshJob => ({ hostId: 1, url: `${PUBLIC}${pathname}`, dimensionId: 1, ...overrides });
  const refresh = (j: RefreshJob) => refresher.refresh(j, { signal: AbortSignal.timeout(20_000), purpose: 'recache' });
  const body = async (j: RefreshJob) => (await (await store.get(j.hostId, j.url, j.dimensionId))?.readBody())?.toString();
  const goodEntry = (j: RefreshJob) =>
    store.put({ ...j, kind: 'render', statusCode: 200, headers: {}, durationMs: 1, createdAt: Date.now() - 10, expiresAt: Date.now() - 5 }, Buffer.from('<p>good old page</p>'));

  it.each(['/script-navigation', '/meta-refresh', '/timed-navigation'])('fails a page that navigates away (%s), storing nothing and keeping the good entry', async (pathname) => {
    await goodEntry(job(pathname));
    expect(await refresh(job(pathname))).toMatchObject({ kind: 'failed', reason: expect.stringMatching(/^navigated away/) });
    expect(await body(job(pathname))).toBe('<p>good old page</p>');
  });

  it("stores the origin's redirect to an internal address as the redirect it is, in both modes, without following it", async () => {
    const location = `http://127.0.0.1:${canary.port}/metrics`;
    expect(await refresh(job('/origin-redirect'))).toMatchObject({ kind: 'stored', statusCode: 302, bytes: 0 });
    expect((await store.get(1, `${PUBLIC}/origin-redirect`, 1))!.entry.headers).toEqual({ location });
    expect(await refresh(job('/origin-redirect', { dimensionId: 2 }))).toMatchObject({ kind: 'stored', statusCode: 302, bytes: 0 });
  });

  it('renders the page without what it asked of internal addresses: frames, stylesheets, prefetch', async () => {
    for (const pathname of ['/iframe', '/stylesheet']) {
      expect(await refresh(job(pathname))).toMatchObject({ kind: 'stored', statusCode: 200 });
      expect(await body(job(pathname))).toContain('customer page');
      expect(await body(job(pathname))).not.toContain('INTERNAL SECRET');
    }
  });

  it('refuses fetch, XHR, WebSocket, EventSource and beacons to internal addresses', async () => {
    expect(await refresh(job('/fetch'))).toMatchObject({ kind: 'stored', statusCode: 200 });
    const html = await body(job('/fetch'));
    expect(html).toMatch(/<div id="out">rejected: rejected: rejected: rejected:<\/div>/);
    expect(html).not.toContain('INTERNAL SECRET');
  });

  it('refuses a host name that resolves to 127.0.0.1 (resolved over DNS and checked by the proxy, not by the browser), and names only the hosts file knows', async () => {
    expect(await refresh(job('/by-name'))).toMatchObject({ kind: 'stored', statusCode: 200 });
    const html = await body(job('/by-name'));
    expect(html).toContain('<div id="out">refused</div>');
    expect(html).not.toContain('INTERNAL SECRET');
  });

  it("refuses a service worker's requests", async () => {
    expect(await refresh(job('/service-worker'))).toMatchObject({ kind: 'stored' });
    expect(await body(job('/service-worker'))).toContain('<div id="out">worker ready</div>');
  });

  it('sends no WebRTC datagram outside the proxy (STUN to an internal address)', async () => {
    expect(await refresh(job('/webrtc'))).toMatchObject({ kind: 'stored' });
    expect(await body(job('/webrtc'))).toContain('<div id="out">gathered</div>');
  });

  it('survives answers the page shapes to break the proxy (a reason phrase with control characters, status 099)', async () => {
    expect(await refresh(job('/malformed-answers'))).toMatchObject({ kind: 'stored', statusCode: 200 });
    expect(await body(job('/malformed-answers'))).toContain('<div id="out">survived</div>');
  });

  it('refuses to fetch or render a default origin whose name resolves to an internal address', async () => {
    const local = { hostId: 2, url: 'https://internal.test/page', dimensionId: 1 };
    expect(await refresh({ ...local, mode: 'bypass' })).toMatchObject({ kind: 'failed', reason: 'refused: internal.test resolves to an internal address (127.0.0.1)' });
    expect(await refresh(local)).toMatchObject({ kind: 'failed' });
    expect(await store.get(2, local.url, 1)).toBeUndefined();
  });
});
