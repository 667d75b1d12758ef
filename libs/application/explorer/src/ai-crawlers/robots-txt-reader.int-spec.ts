import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressPolicy } from '@bpc/egress';
import { RobotsTxtReader } from './robots-txt-reader';

describe('RobotsTxtReader (a real origin on loopback, the egress rules, an injected clock)', () => {
  let server: Server;
  let origin: string;
  let fetches = 0;
  let answer: { status: number; body: string } = { status: 200, body: 'User-agent: GPTBot\nDisallow: /\n' };
  const clock = { ms: Date.UTC(2026, 11, 7), now: () => clock.ms };
  let reader: RobotsTxtReader;

  beforeAll(async () => {
    server = createServer((req, res) => {
      fetches += 1;
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    reader = new RobotsTxtReader({ addresses: new AddressPolicy(), clock, ttlMs: 60_000, failureTtlMs: 5_000 });
  });
  afterAll(async () => {
    await reader.close();
    server.close();
  });

  const site = () => ({ hostnames: ['www.example.test'], origin });

  it('fetches once for callers asking together, then answers from the cache until the TTL', async () => {
    const [a, b] = await Promise.all([reader.read('www.example.test', site()), reader.read('WWW.example.test', site())]);
    expect(a).toBe(b);
    expect(a.view).toMatchObject({ url: 'https://www.example.test/robots.txt', state: 'rules', httpStatus: 200 });
    expect(fetches).toBe(1);
    clock.ms += 59_000;
    await reader.read('www.example.test', site());
    expect(fetches).toBe(1);
    answer = { status: 503, body: '' };
    clock.ms += 2_000;
    expect((await reader.read('www.example.test', site())).view.state).toBe('server_error');
    expect(fetches).toBe(2);
  });

  it('keeps a failure for less time', async () => {
    answer = { status: 200, body: 'User-agent: *\nAllow: /\n' };
    clock.ms += 4_000;
    expect((await reader.read('www.example.test', site())).view.state).toBe('server_error');
    clock.ms += 2_000;
    expect((await reader.read('www.example.test', site())).view.state).toBe('rules');
    expect(fetches).toBe(3);
  });

  it('says so when the egress rules refuse the address (no configured origin: loopback is internal)', async () => {
    const refused = await reader.read('127.0.0.1', { hostnames: ['127.0.0.1'] });
    expect(refused.view).toMatchObject({ state: 'unreachable', httpStatus: null, reason: expect.stringContaining('refused') });
    expect(refused.file).toBeNull();
  });
});
