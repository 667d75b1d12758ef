import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { Json, jsonOf, removeTestDataDir, RuntimeMode, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { botRequest, issueToken, recordAndWait } from './explorer-fixtures';

const HOUR = 3_600_000;

const ROBOTS_TXT = `User-agent: *
Disallow: /admin/

User-agent: GPTBot
Disallow: /docs/

User-agent: Bytespider
Disallow: /
`;

/**
 * POST …/insights/ai-crawlers through the real service in both modes: the
 * site's robots.txt fetched from its configured origin (a server on
 * loopback), judged per AI agent, beside the recorded crawling and the claims
 * proven false; a robots.txt that cannot be read is said so, not a 500.
 */
describe.each<RuntimeMode>(['standalone', 'cluster'])('insights ai-crawlers (%s mode)', (mode) => {
  let origin: Server;
  let running: RunningApps;
  let api: string;
  let token: string;
  let robotsFetches = 0;

  beforeAll(async () => {
    origin = createServer((req, res) => {
      if (req.url !== '/robots.txt') return void res.writeHead(404).end();
      robotsFetches += 1;
      res.writeHead(200, { 'content-type': 'text/plain' }).end(ROBOTS_TXT);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    const originUrl = `http://127.0.0.1:${(origin.address() as AddressInfo).port}`;
    const config = testConfig(mode, {
      hosts: [
        { host_id: 1, hostnames: ['www.example.com', 'example.com'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop' }] },
        // An origin nothing listens on: its robots.txt cannot be read.
        { host_id: 2, hostnames: ['shop.example.org'], origin: 'http://127.0.0.1:9', dimensions: [{ id: 1, name: 'desktop' }] },
      ],
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme' },
        { id: 'shop', host_id: 2, account_id: 'acme' },
        { id: 'off', host_id: 1, account_id: 'acme', platform_module: false },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('warn', `e2e-ai-crawlers-${mode}`));
    api = running.urls['public-api']!;
    ({ token } = await issueToken(api, { user: 'rita', website: 'demo', role: 'readonly' }));
    await issueToken(api, { user: 'rita', website: 'shop', role: 'readonly' });
    await issueToken(api, { user: 'rita', website: 'off', role: 'admin' });
    const at = (ms: number) => new Date(Date.now() - ms);
    const page = (path: string) => `https://www.example.com${path}`;
    const gpt = { botName: 'GPTBot', botCategory: 'ai_training', botOperator: 'OpenAI', verified: 'yes' } as const;
    const events = [
      botRequest('demo', at(1 * HOUR), { ...gpt, url: page('/docs/setup'), robotsAllowed: 'no' }),
      botRequest('demo', at(2 * HOUR), { ...gpt, url: page('/docs/setup'), robotsAllowed: 'no' }),
      botRequest('demo', at(3 * HOUR), { ...gpt, url: page('/pricing'), robotsAllowed: 'yes' }),
      botRequest('demo', at(4 * HOUR), { url: page('/pricing'), botName: 'ChatGPT-User', botCategory: 'ai_assistant', botOperator: 'OpenAI', verified: 'yes', robotsAllowed: 'yes' }),
      // Scrapers claiming to be Googlebot: one miss refused a render (403), one served from the cache.
      botRequest('demo', at(5 * HOUR), { url: page('/pricing'), botCategory: 'search', botOperator: 'Google', verified: 'no', cacheStatus: 'miss', statusCode: 403, robotsAllowed: 'yes' }),
      botRequest('demo', at(6 * HOUR), { url: page('/a'), botCategory: 'search', botOperator: 'Google', verified: 'no', cacheStatus: 'hit', robotsAllowed: 'yes' }),
      botRequest('demo', at(7 * HOUR), { url: page('/a'), botCategory: 'search', botOperator: 'Google', verified: 'yes', robotsAllowed: 'yes' }),
      botRequest('demo', at(8 * HOUR), { url: page('/a'), botCategory: 'search', botOperator: 'Google', verified: 'yes', robotsAllowed: 'yes' }),
    ];
    await recordAndWait(running, events, 'demo', events.length);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    origin?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const post = async (body: unknown, website = 'demo', bearer: string | null = token): Promise<{ status: number; body: Json }> => {
    const response = await fetch(`${api}/api/websites/${website}/insights/ai-crawlers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(bearer === null ? {} : { authorization: `Bearer ${bearer}` }) },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: await jsonOf(response) };
  };

  it("judges every AI agent by the site's robots.txt, beside what it crawled, and the claims proven false", async () => {
    const { status, body } = await post({ period: '24h' });
    expect(status).toBe(200);
    const { data, meta } = body;
    expect(meta).toEqual({ period: '24h', window: { start: expect.any(String), end: expect.any(String) }, hostname: 'www.example.com' });
    expect(data.robotsTxt).toMatchObject({ url: 'https://www.example.com/robots.txt', state: 'rules', httpStatus: 200, reason: null, truncated: false });
    // /a and /pricing tie at 3 requests: by URL.
    expect(data.checkedPaths).toEqual(['/', '/admin/', '/docs/', '/a', '/pricing', '/docs/setup']);
    const byName = new Map<string, Json>(data.agents.map((agent: Json) => [agent.name, agent]));
    expect(data.agents.slice(0, 2).map((agent: Json) => agent.name)).toEqual(['GPTBot', 'ChatGPT-User']);
    expect(byName.get('GPTBot')).toEqual({
      name: 'GPTBot',
      operator: 'OpenAI',
      category: 'ai_training',
      robotsTxtToken: 'GPTBot',
      fetchedAs: null,
      robots: 'partly_disallowed',
      namedInRobotsTxt: true,
      disallowedPaths: ['/docs/', '/docs/setup'],
      requests: 3,
      disallowedRequests: 2,
      topDisallowedUrls: [{ url: 'https://www.example.com/docs/setup', requests: 2 }],
    });
    expect(byName.get('Bytespider')).toMatchObject({ robots: 'blocked', disallowedPaths: ['/'], requests: 0 });
    expect(byName.get('ChatGPT-User')).toMatchObject({ robots: 'partly_disallowed', namedInRobotsTxt: false, disallowedPaths: ['/admin/'], requests: 1, disallowedRequests: 0 });
    expect(byName.get('Google-Extended')).toMatchObject({ fetchedAs: 'Googlebot' });
    expect(data.summary).toMatchObject({ blocked: 1, unknown: 0, namedInRobotsTxt: 2, agentsSeen: 2, requests: 4, disallowedRequests: 2, agentsIgnoringRobotsTxt: 1 });
    expect(data.spoofed).toEqual({
      requests: 2,
      share: 0.25,
      rendersAvoided: 1,
      rendersCaused: 0,
      topClaimedBots: [{ bot: 'Googlebot', requests: 2 }],
      topUrls: [
        { url: 'https://www.example.com/a', requests: 1 },
        { url: 'https://www.example.com/pricing', requests: 1 },
      ],
    });
  });

  it('keeps the robots.txt a few minutes: a second call does not fetch it again; another hostname of the website may be asked for', async () => {
    const before = robotsFetches;
    expect((await post({ period: '7d' })).status).toBe(200);
    expect(robotsFetches).toBe(before);
    const other = await post({ hostname: 'Example.com' });
    expect(other.body.meta.hostname).toBe('example.com');
    expect(robotsFetches).toBe(before + 1);
  });

  it('says when the robots.txt cannot be read, with verdicts unknown, instead of failing', async () => {
    const { status, body } = await post({}, 'shop');
    expect(status).toBe(200);
    expect(body.data.robotsTxt).toMatchObject({ url: 'https://shop.example.org/robots.txt', state: 'unreachable', httpStatus: null, reason: expect.any(String) });
    expect(body.data.summary).toMatchObject({ unknown: body.data.agents.length, allowed: 0, blocked: 0 });
  });

  it('refuses bad bodies with 400 VALIDATION_FAILED naming the field; needs a token, and the platform module', async () => {
    const cases: [unknown, string][] = [
      [{ hostname: 'shop.example.org' }, 'hostname'],
      [{ hostname: 42 }, 'hostname'],
      [{ compPeriod: '7d' }, 'compPeriod'],
      [{ period: '400d' }, 'period'],
      [{ filters: [{ field: 'robots_allowed', op: 'eq', val: 'perhaps' }] }, 'filters[0].val'],
    ];
    for (const [body, field] of cases) expect(await post(body)).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED', field } });
    expect((await post({}, 'demo', null)).status).toBe(401);
    expect(await post({}, 'off')).toMatchObject({ status: 403, body: { code: 'FEATURE_DISABLED' } });
  });
});
