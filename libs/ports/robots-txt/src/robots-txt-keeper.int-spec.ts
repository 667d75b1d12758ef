import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressPolicy } from '@bpc/egress';
import { gate } from '../../../../test/harness/gate';
import { MAX_ROBOTS_TXT_BYTES } from './robots-file';
import { MAX_JUDGED_RULES, RobotsTxtKeeper, type RobotsTxtKeeperOptions } from './robots-txt-keeper';

async function serve(handler: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("RobotsTxtKeeper: each host's robots.txt, fetched in the background (a real server on loopback)", () => {
  let origin: { url: string; server: Server };
  let internal: { url: string; server: Server };
  /** The answer of the origin's robots.txt, per test. */
  let answer: RequestListener;
  let fetches = 0;
  let clock = 0;
  const ORIGIN = 'https://www.example.test';
  const site = () => ({ hostnames: ['www.example.test'], origin: origin.url });
  const keeperWith = (options: Partial<RobotsTxtKeeperOptions> = {}) =>
    new RobotsTxtKeeper({ addresses: new AddressPolicy(), refreshMs: 60_000, retryMs: 1_000, now: () => clock, ...options });
  const ask = (keeper: RobotsTxtKeeper, token: string, path: string) => keeper.verdict(site(), ORIGIN, token, `${ORIGIN}${path}`);

  beforeAll(async () => {
    internal = await serve((_req, res) => res.end('User-agent: *\nAllow: /\n'));
    origin = await serve((req, res) => {
      if (req.url !== '/robots.txt') return res.writeHead(404).end();
      fetches++;
      answer(req, res);
    });
  });
  afterAll(() => {
    origin.server.close();
    internal.server.close();
  });
  beforeEach(() => {
    fetches = 0;
    clock = 0;
  });

  it('answers unknown until the file is fetched, one fetch however many bots ask, then each bot by its group', async () => {
    answer = (_req, res) => res.writeHead(200).end('User-agent: GPTBot\nDisallow: /\n\nUser-agent: *\nDisallow: /private\n');
    const keeper = keeperWith();
    for (let i = 0; i < 20; i++) expect(ask(keeper, 'GPTBot', '/pricing')).toBe('unknown');
    await keeper.idle();
    expect(fetches).toBe(1);
    expect(ask(keeper, 'GPTBot', '/pricing')).toBe('no');
    expect(ask(keeper, 'Googlebot', '/pricing')).toBe('yes');
    expect(ask(keeper, 'Googlebot', '/private/x')).toBe('no');
    await keeper.close();
  });

  it('fetches again once the refresh interval has passed, answering from the old copy meanwhile', async () => {
    answer = (_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /old\n');
    const keeper = keeperWith();
    ask(keeper, 'Googlebot', '/');
    await keeper.idle();
    answer = (_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /new\n');
    clock += 30_000;
    expect(ask(keeper, 'Googlebot', '/old')).toBe('no');
    await keeper.idle();
    expect(fetches).toBe(1);
    clock += 30_000;
    expect(ask(keeper, 'Googlebot', '/old')).toBe('no');
    await keeper.idle();
    expect(fetches).toBe(2);
    expect(ask(keeper, 'Googlebot', '/old')).toBe('yes');
    expect(ask(keeper, 'Googlebot', '/new')).toBe('no');
    await keeper.close();
  });

  it('disallows all on a 5xx with no good copy, keeps a good copy through a failing refresh, and tries a failure again sooner', async () => {
    answer = (_req, res) => res.writeHead(503).end();
    const keeper = keeperWith();
    ask(keeper, 'Googlebot', '/');
    await keeper.idle();
    expect(ask(keeper, 'Googlebot', '/a')).toBe('no');
    clock += 1_000;
    answer = (_req, res) => res.writeHead(200).end('User-agent: *\nDisallow: /b\n');
    ask(keeper, 'Googlebot', '/a');
    await keeper.idle();
    expect(ask(keeper, 'Googlebot', '/a')).toBe('yes');
    answer = (_req, res) => res.writeHead(500).end();
    clock += 60_000;
    ask(keeper, 'Googlebot', '/a');
    await keeper.idle();
    expect(fetches).toBe(3);
    expect(ask(keeper, 'Googlebot', '/a')).toBe('yes');
    expect(ask(keeper, 'Googlebot', '/b')).toBe('no');
    await keeper.close();
  });

  it('allows all when the file is missing (404)', async () => {
    answer = (_req, res) => res.writeHead(404).end('User-agent: *\nDisallow: /\n');
    const keeper = keeperWith();
    ask(keeper, 'GPTBot', '/');
    await keeper.idle();
    expect(ask(keeper, 'GPTBot', '/anything')).toBe('yes');
    await keeper.close();
  });

  it('disallows all when robots.txt redirects to an internal address (not followed)', async () => {
    answer = (_req, res) => res.writeHead(302, { location: `${internal.url}/robots.txt` }).end();
    const keeper = keeperWith();
    ask(keeper, 'Googlebot', '/');
    await keeper.idle();
    expect(ask(keeper, 'Googlebot', '/a')).toBe('no');
    await keeper.close();
  });

  it('reads the first 500 KiB of a huge file and binary garbage as whatever lines parse', async () => {
    answer = (_req, res) => res.writeHead(200).end(Buffer.concat([Buffer.from('User-agent: *\nDisallow: /a\n'), Buffer.alloc(3 * MAX_ROBOTS_TXT_BYTES, 0xff), Buffer.from('\nDisallow: /b\n')]));
    const huge = keeperWith();
    ask(huge, 'Googlebot', '/');
    await huge.idle();
    expect([ask(huge, 'Googlebot', '/a'), ask(huge, 'Googlebot', '/b')]).toEqual(['no', 'yes']);
    await huge.close();
    answer = (_req, res) => res.writeHead(200).end(Buffer.from([0, 159, 146, 150, 10, 255, 0, 13, 10]));
    const binary = keeperWith();
    ask(binary, 'Googlebot', '/');
    await binary.idle();
    expect(ask(binary, 'Googlebot', '/a')).toBe('yes');
    await binary.close();
  });

  it('does not judge a file with more rules than it may try per request (unknown), counted before parsing', async () => {
    const rules = (n: number) => `User-agent: *\n${Array.from({ length: n - 1 }, (_, i) => `Disallow: /p${i}/*x*y$`).join('\n')}\nDisallow: /a\n`;
    answer = (_req, res) => res.writeHead(200).end(rules(MAX_JUDGED_RULES));
    const atCap = keeperWith();
    ask(atCap, 'Googlebot', '/');
    await atCap.idle();
    expect(ask(atCap, 'Googlebot', '/a')).toBe('no');
    await atCap.close();
    answer = (_req, res) => res.writeHead(200).end(rules(MAX_JUDGED_RULES + 1));
    const over = keeperWith();
    ask(over, 'Googlebot', '/');
    await over.idle();
    expect(ask(over, 'Googlebot', '/a')).toBe('unknown');
    await over.close();
  });

  it('runs at most maxConcurrentFetches fetches at once: other hosts stay unknown and are fetched on a later question', async () => {
    const held = gate();
    answer = (_req, res) => void held.opened.then(() => res.writeHead(200).end('User-agent: *\nDisallow: /x\n'));
    const keeper = keeperWith({ maxConcurrentFetches: 1 });
    const other = { hostnames: ['other.example.test'], origin: origin.url };
    expect(ask(keeper, 'Googlebot', '/x')).toBe('unknown');
    expect(keeper.verdict(other, 'https://other.example.test', 'Googlebot', 'https://other.example.test/x')).toBe('unknown');
    held.open();
    await keeper.idle();
    expect(fetches).toBe(1);
    expect(keeper.verdict(other, 'https://other.example.test', 'Googlebot', 'https://other.example.test/x')).toBe('unknown');
    await keeper.idle();
    expect(keeper.verdict(other, 'https://other.example.test', 'Googlebot', 'https://other.example.test/x')).toBe('no');
    await keeper.close();
  });
});
