import { request, type IncomingMessage } from 'node:http';
import { createServer, connect, type AddressInfo, type Server } from 'node:net';
import { startTestDnsServer, type TestDnsServer } from '@bpc/testing';
import { AddressPolicy } from './address-policy';
import { dnsResolve, systemResolve } from './checked-address';
import { EGRESS_REFUSED_HEADER, EgressProxy } from './egress-proxy';

/** The egress proxy alone, with real sockets and a real DNS server on loopback: what a page can do to it through the browser. */
describe('egress proxy', () => {
  let dns: TestDnsServer;
  let rawOrigin: Server;
  let proxy: EgressProxy;
  let originPort: number;

  beforeAll(async () => {
    dns = await startTestDnsServer({ 'loopback.test': ['127.0.0.1'] }, (name) => name.startsWith('slow'));
    // An origin that writes whatever status line its page asks for.
    rawOrigin = createServer((socket) => {
      socket.once('data', (data) => {
        const path = data.toString().split(' ')[1];
        socket.end(path === '/status-099' ? 'HTTP/1.1 099 Odd\r\ncontent-length: 2\r\n\r\nok' : 'HTTP/1.1 200 \x01\x7f\r\ncontent-length: 2\r\n\r\nok');
      });
    });
    await new Promise<void>((resolve) => rawOrigin.listen(0, '127.0.0.1', resolve));
    originPort = (rawOrigin.address() as AddressInfo).port;
    proxy = await EgressProxy.start({
      rules: { trustedOrigin: new URL(`http://127.0.0.1:${originPort}`), addresses: new AddressPolicy() },
      resolvers: { page: dnsResolve(() => dns.resolver()), trusted: systemResolve },
    });
  });

  afterAll(async () => {
    await proxy?.close();
    await new Promise<void>((resolve) => (rawOrigin ? rawOrigin.close(() => resolve()) : resolve()));
    await dns?.close();
  });

  /** One plain-HTTP request through the proxy, in absolute form, as Chromium sends it. */
  const viaProxy = (url: string) =>
    new Promise<IncomingMessage & { text: string }>((resolve, reject) => {
      const { port } = new URL(proxy.url);
      const sent = request({ host: '127.0.0.1', port: Number(port), path: url, headers: { host: new URL(url).host } }, (answer) => {
        let text = '';
        answer.on('data', (chunk: Buffer) => (text += chunk.toString()));
        answer.on('end', () => resolve(Object.assign(answer, { text })));
      });
      sent.on('error', reject);
      sent.end();
    });

  it('answers 502 for a status line Node would not send, instead of throwing out of its handler', async () => {
    expect((await viaProxy(`http://127.0.0.1:${originPort}/reason`)).statusCode).toBe(200);
    expect((await viaProxy(`http://127.0.0.1:${originPort}/status-099`)).statusCode).toBe(502);
  });

  it('refuses a name resolving to loopback with a marked 403, and a tunnel to it with a 403', async () => {
    const refused = await viaProxy('http://loopback.test/x');
    expect(refused.statusCode).toBe(403);
    expect(refused.headers[EGRESS_REFUSED_HEADER]).toBe('1');
    const { port } = new URL(proxy.url);
    const tunnel = connect(Number(port), '127.0.0.1');
    tunnel.write('CONNECT loopback.test:443 HTTP/1.1\r\nHost: loopback.test:443\r\n\r\n');
    const head = await new Promise<string>((resolve) => tunnel.once('data', (data) => resolve(data.toString())));
    tunnel.destroy();
    expect(head).toMatch(/^HTTP\/1\.1 403 /);
  });

  it("does not make one page's names whose DNS never answers hold another's lookups", async () => {
    const stalled = Array.from({ length: 40 }, (_, i) => viaProxy(`http://slow${i}.test/`).then((answer) => answer.statusCode));
    let stalledSettled = 0;
    for (const one of stalled) void one.then(() => (stalledSettled += 1));
    expect((await viaProxy('http://loopback.test/')).statusCode).toBe(403);
    expect(stalledSettled).toBe(0);
    // The silent server's names end as names that do not resolve (the resolver's own timeout).
    expect(new Set(await Promise.all(stalled))).toEqual(new Set([502]));
  });
});
