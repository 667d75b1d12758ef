import path from 'node:path';
import { sha256Hex } from '@bpc/domain';
import type { LogBatch, Subscription } from '@bpc/event-log';
import { BOT_REQUEST_RECORDED, BotRequestRecordedPayload, TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { rawRequest, RuntimeMode, startPrerenderNodeSite, testConfig, TestOrigin, until, type PrerenderNodeSite, type RawAnswer } from '@bpc/testing';
import { startTestDnsZone, type TestDnsZone } from '../harness/test-dns-zone';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const SAMPLE_RANGES = path.resolve(__dirname, '../../libs/ports/bot-verification/src/sample-ranges');
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const GPTBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot';
/** In the SAMPLE Google ranges (RFC 5737 documentation addresses). */
const GOOGLE_RANGE_ADDRESS = '192.0.2.10';
/** In the SAMPLE OpenAI ranges. */
const OPENAI_RANGE_ADDRESS = '198.51.100.3';
/** Outside every range; its PTR name is under googlebot.com and resolves back to it (forward-confirmed reverse DNS). */
const GOOGLE_DNS_ADDRESS = '203.0.113.10';
/** Outside every range, no PTR record: a claim to be Google or OpenAI from it is proven false. */
const SCRAPER_ADDRESS = '203.0.113.66';

const TOKENS = { demo: 'verify-demo-token', refuse: 'verify-refuse-token', render: 'verify-render-token' } as const;
const ROBOTS_TXT = 'User-agent: GPTBot\nDisallow: /private\n\nUser-agent: *\nDisallow: /nobots\n';

/**
 * Issue 44 §4–5 through the edge: the bot's address from X-Forwarded-For
 * (the test's loopback peer stands for the customer's middleware, a trusted
 * proxy), claims checked against the SAMPLE range files and a DNS server on
 * loopback, each website's `spoofed_bots` policy, and robots.txt verdicts;
 * what was recorded is read back from the event log.
 */
describe.each<RuntimeMode>(['standalone', 'cluster'])('edge bot verification and robots.txt (%s mode)', (mode) => {
  let running: RunningApps;
  let origin: TestOrigin;
  let zone: TestDnsZone;
  let subscription: Subscription;
  /** An Express site with `prerender-node` set up as the README says for the bot's address (`forwardHeaders`). */
  let expressSite: PrerenderNodeSite;
  const recorded = new Map<string, BotRequestRecordedPayload>();

  beforeAll(async () => {
    zone = await startTestDnsZone([
      { type: 'PTR', address: GOOGLE_DNS_ADDRESS, name: 'crawl-203-0-113-10.googlebot.com' },
      { type: 'A', name: 'crawl-203-0-113-10.googlebot.com', address: GOOGLE_DNS_ADDRESS },
    ]);
    origin = new TestOrigin((p) => (p === '/robots.txt' ? { status: 200, body: ROBOTS_TXT, headers: { 'content-type': 'text/plain' } } : { status: 200, body: `<html><head><title>${p}</title></head><body>page ${p}</body></html>` }));
    const originUrl = await origin.start();
    const host = (id: number, hostname: string) => ({ host_id: id, hostnames: [hostname], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', action: 'bypass' }] });
    const config = testConfig(mode, {
      scheduler: { enabled: false },
      edge: {
        record_flush_ms: 20,
        trusted_proxies: ['127.0.0.1/32', '::1/128'],
        bot_verification: { ranges_dir: SAMPLE_RANGES, dns_servers: [`127.0.0.1:${zone.port}`], dns_timeout_ms: 500 },
      },
      hosts: [host(1, 'www.example.com'), host(2, 'refuse.example.org'), host(3, 'render.example.net')],
      websites: [
        { id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKENS.demo) },
        { id: 'refuse', host_id: 2, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKENS.refuse), spoofed_bots: 'refuse' },
        { id: 'render', host_id: 3, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKENS.render), spoofed_bots: 'render' },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', `edge-bot-verification-${mode}`));
    expressSite = await startPrerenderNodeSite(running.urls.edge!, TOKENS.demo, 'the site itself');
    subscription = await running.runtime.ports.eventLog!.subscribe({
      groupId: `edge-bot-verification-${Date.now()}`,
      topics: [TOPICS.botRequests],
      handleBatch: async (batch: LogBatch) => {
        for (const record of batch.records) if (record.event.type === BOT_REQUEST_RECORDED) recorded.set((record.event.payload as BotRequestRecordedPayload).requestId, record.event.payload as BotRequestRecordedPayload);
      },
    });
  });

  afterAll(async () => {
    await expressSite?.stop();
    await subscription?.stop();
    await running?.close();
    await origin?.stop();
    await zone?.close();
  });

  const request = (url: string, userAgent: string, forwardedFor: string | undefined, token: string = TOKENS.demo): Promise<RawAnswer> =>
    rawRequest(running.urls.edge!, `/${url}`, { headers: { 'x-prerender-token': token, 'user-agent': userAgent, ...(forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor }) } });
  /** The request as the log holds it (waits for the edge's flush and the log). */
  const recordOf = (answer: RawAnswer): Promise<BotRequestRecordedPayload> => {
    const id = String(answer.headers['x-request-id']);
    return until(() => recorded.get(id), (payload) => payload !== undefined, { timeoutMs: 30_000, what: `request ${id} in the log` }) as Promise<BotRequestRecordedPayload>;
  };
  /** Asks (a cached page, so nothing renders) until the claim's check is done and recorded as `verified`. */
  const checkedAs = async (url: string, userAgent: string, forwardedFor: string, verified: 'yes' | 'no') =>
    until(async () => (await recordOf(await request(url, userAgent, forwardedFor))).verified, (answer) => answer === verified, { timeoutMs: 30_000, what: `${forwardedFor} recorded verified: ${verified}` });

  it('a real Googlebot in the published ranges is verified at once and renders', async () => {
    const answer = await request('https://www.example.com/cached', GOOGLEBOT, GOOGLE_RANGE_ADDRESS);
    expect(answer.status).toBe(200);
    expect(answer.headers['x-prerender-cache']).toBe('bypass');
    expect(await recordOf(answer)).toMatchObject({ botName: 'Googlebot', botOperator: 'Google', verified: 'yes' });
  });

  it('a fake Googlebot is unknown on its first request, then recorded verified: no, and cannot make the edge render (serve_cached_only)', async () => {
    const first = await request('https://www.example.com/cached', GOOGLEBOT, SCRAPER_ADDRESS);
    expect(first.status).toBe(200);
    expect((await recordOf(first)).verified).toBe('unknown');
    await checkedAs('https://www.example.com/cached', GOOGLEBOT, SCRAPER_ADDRESS, 'no');

    const hit = await request('https://www.example.com/cached', GOOGLEBOT, SCRAPER_ADDRESS);
    expect([hit.status, hit.headers['x-prerender-cache']]).toEqual([200, 'hit']);
    const miss = await request('https://www.example.com/never-rendered', GOOGLEBOT, SCRAPER_ADDRESS);
    expect(miss.status).toBe(403);
    expect(JSON.parse(miss.body.toString())).toMatchObject({ code: 'UNVERIFIED_BOT' });
    expect(await recordOf(miss)).toMatchObject({ verified: 'no', statusCode: 403, botName: 'Googlebot' });
    expect(origin.hits.get('/never-rendered')).toBeUndefined();
  });

  it('believes only the entry the trusted proxy appended: a Google address forged to its left changes nothing', async () => {
    await checkedAs('https://www.example.com/cached', GOOGLEBOT, `${GOOGLE_RANGE_ADDRESS}, ${SCRAPER_ADDRESS}`, 'no');
    expect((await request('https://www.example.com/forged', GOOGLEBOT, `${GOOGLE_RANGE_ADDRESS}, ${SCRAPER_ADDRESS}`)).status).toBe(403);
    expect(origin.hits.get('/forged')).toBeUndefined();
  });

  it('a Googlebot that passes forward-confirmed reverse DNS is verified and renders; without an address a claim stays unknown and is served', async () => {
    await checkedAs('https://www.example.com/cached', GOOGLEBOT, GOOGLE_DNS_ADDRESS, 'yes');
    const miss = await request('https://www.example.com/dns-verified', GOOGLEBOT, GOOGLE_DNS_ADDRESS);
    expect([miss.status, miss.headers['x-prerender-cache']]).toEqual([200, 'bypass']);
    const anonymous = await request('https://www.example.com/no-address', GOOGLEBOT, undefined);
    expect([anonymous.status, anonymous.headers['x-prerender-cache']]).toEqual([200, 'bypass']);
    expect((await recordOf(anonymous)).verified).toBe('unknown');
    const garbage = await request('https://www.example.com/cached', GOOGLEBOT, 'not-an-address, 999.1.1.1');
    expect(garbage.status).toBe(200);
    expect((await recordOf(garbage)).verified).toBe('unknown');
  });

  it('refuse answers 403 to a claim proven false, render serves it like any bot', async () => {
    // OpenAI publishes ranges only: an address outside them is proven false at once.
    const refused = await request('https://refuse.example.org/page', GPTBOT, SCRAPER_ADDRESS, TOKENS.refuse);
    expect(refused.status).toBe(403);
    expect(await recordOf(refused)).toMatchObject({ verified: 'no', botName: 'GPTBot', statusCode: 403 });
    const real = await request('https://refuse.example.org/page', GPTBOT, OPENAI_RANGE_ADDRESS, TOKENS.refuse);
    expect(real.status).toBe(200);
    expect((await recordOf(real)).verified).toBe('yes');
    const rendered = await request('https://render.example.net/page', GPTBOT, SCRAPER_ADDRESS, TOKENS.render);
    expect([rendered.status, rendered.headers['x-prerender-cache']]).toEqual([200, 'bypass']);
    expect((await recordOf(rendered)).verified).toBe('no');
  });

  it("through prerender-node with forwardHeaders, the address a proxy in front of the site appended is the bot's", async () => {
    // The test client stands for the proxy in front of Express: it sends the X-Forwarded-For that proxy would have appended.
    const viaSite = (pagePath: string, userAgent: string, forwardedFor: string) => rawRequest(expressSite.url, pagePath, { headers: { host: 'www.example.com', 'user-agent': userAgent, 'x-forwarded-for': forwardedFor } });
    const verified = await viaSite('/via-prerender-node', GOOGLEBOT, GOOGLE_RANGE_ADDRESS);
    expect(verified.status).toBe(200);
    expect(await recordOf(verified)).toMatchObject({ url: 'http://www.example.com/via-prerender-node', verified: 'yes' });
    const spoofed = await viaSite('/spoofed-via-prerender-node', GPTBOT, SCRAPER_ADDRESS);
    expect(spoofed.status).toBe(403);
    expect((await recordOf(spoofed)).verified).toBe('no');
    expect(origin.hits.get('/spoofed-via-prerender-node')).toBeUndefined();
  });

  it("records whether the bot was allowed the URL by the host's robots.txt (unknown until it is fetched)", async () => {
    const allowedOf = async (url: string, userAgent: string, address: string) => (await recordOf(await request(url, userAgent, address))).robotsAllowed;
    await until(() => allowedOf('https://www.example.com/private/a', GPTBOT, OPENAI_RANGE_ADDRESS), (allowed) => allowed !== 'unknown', { timeoutMs: 30_000, what: 'robots.txt fetched' });
    const fetched = origin.hits.get('/robots.txt');
    expect(await allowedOf('https://www.example.com/private/a', GPTBOT, OPENAI_RANGE_ADDRESS)).toBe('no');
    expect(await allowedOf('https://www.example.com/public', GPTBOT, OPENAI_RANGE_ADDRESS)).toBe('yes');
    expect(await allowedOf('https://www.example.com/private/a', GOOGLEBOT, GOOGLE_RANGE_ADDRESS)).toBe('yes');
    expect(await allowedOf('https://www.example.com/nobots', GOOGLEBOT, GOOGLE_RANGE_ADDRESS)).toBe('no');
    // Kept: asking again fetches nothing (the other hosts' files may still be fetched once each, by the tests before).
    expect(origin.hits.get('/robots.txt')).toBe(fetched);
  });
});
