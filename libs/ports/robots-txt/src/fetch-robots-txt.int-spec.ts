import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressPolicy, checkedDispatcher, type EgressRules } from '@bpc/egress';
import { fetchRobotsTxt } from './fetch-robots-txt';
import { MAX_ROBOTS_TXT_BYTES, mayCrawl, robotsFileOf } from './robots-file';

async function serve(handler: RequestListener): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe("fetching a host's robots.txt (a real server on loopback, the egress rules)", () => {
  let origin: { url: string; server: Server };
  let internal: { url: string; server: Server };
  const answers: Record<string, RequestListener> = {};

  beforeAll(async () => {
    internal = await serve((_req, res) => res.end('User-agent: *\nAllow: /\n'));
    origin = await serve((req, res) => (answers[req.headers['x-case'] as string] ?? ((_q, r) => r.writeHead(404).end()))(req, res));
  });
  afterAll(() => {
    origin.server.close();
    internal.server.close();
  });

  const fetchCase = async (answer: RequestListener) => {
    const name = `case-${Object.keys(answers).length}`;
    answers[name] = answer;
    const rules: EgressRules = { trustedOrigin: new URL(origin.url), addresses: new AddressPolicy() };
    const dispatcher = checkedDispatcher(rules).compose((dispatch) => (options, handler) => dispatch({ ...options, headers: { ...(options.headers as Record<string, string>), 'x-case': name } }, handler));
    const robotsUrl = new URL('https://www.example.test/robots.txt');
    const fetched = await fetchRobotsTxt(robotsUrl, { site: { hostnames: ['www.example.test'], origin: origin.url }, rules, dispatcher, userAgent: 'test', timeoutMs: 5_000 });
    return { fetched, file: robotsFileOf(robotsUrl.href, fetched) };
  };

  it('reads the rules of a 200', async () => {
    const { file } = await fetchCase((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: GPTBot\nDisallow: /\n'));
    expect(mayCrawl(file, 'GPTBot', 'https://www.example.test/a')).toBe(false);
    expect(mayCrawl(file, 'Googlebot', 'https://www.example.test/a')).toBe(true);
  });

  it('keeps a 4xx and a 5xx as answers, for the conventions to judge', async () => {
    expect((await fetchCase((_req, res) => res.writeHead(404).end())).fetched).toMatchObject({ kind: 'answered', status: 404 });
    const failing = await fetchCase((_req, res) => res.writeHead(503).end());
    expect(mayCrawl(failing.file, 'Googlebot', 'https://www.example.test/a')).toBe(false);
  });

  it('reads no more than the cap of a huge answer', async () => {
    const { fetched } = await fetchCase((_req, res) => res.writeHead(200).end(Buffer.alloc(4 * MAX_ROBOTS_TXT_BYTES, 0x41)));
    expect(fetched.kind === 'answered' && fetched.body.length).toBe(MAX_ROBOTS_TXT_BYTES + 1);
  });

  it('does not follow a redirect to an internal address or another host: unreachable', async () => {
    const { fetched, file } = await fetchCase((_req, res) => res.writeHead(302, { location: `${internal.url}/robots.txt` }).end());
    expect(fetched).toMatchObject({ kind: 'unreachable' });
    expect(file.kind).toBe('disallow_all');
  });
});
