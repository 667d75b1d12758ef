import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import prerender from 'prerender-node';
import { sha256Hex } from '@bpc/domain';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { countTokens } from 'gpt-tokenizer';
import { bypassHost, PrerenderNodeSite, RawAnswer, rawRequest, RunningNginx, startNginx, startPrerenderNodeSite, testConfig, TestOrigin, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const TOKEN = 'middleware-test-token';
const SITE = 'www.example.com';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';
const SITE_ITSELF = '<html><body>the site itself</body></html>';
/** A page with a query, and one whose path and query are percent-encoded (`/café?q=a b`): both must reach the edge unchanged. */
const PAGES = ['/pricing?plan=pro', '/caf%C3%A9?q=a%20b', '/caf%C3%A9'];

/** The origin's page names the path it was asked for: the edge fetched the page the bot asked. */
const originPage = (pagePath: string) => `<html><head><title>origin page</title></head><body>origin served ${pagePath}</body></html>`;
/** Under /agents/ the host renders (a URL rule): the origin's page is a shell its script fills, as a JavaScript app's is. */
const AGENT_PAGE = `<!DOCTYPE html><html lang="en"><head><title>shell</title></head><body><div id="app">loading…</div><script>
document.title = 'Widget pricing';
document.getElementById('app').innerHTML = '<main><h1>Widget pricing</h1><p>Blue widgets cost 3 euros, as this script says.</p><p>Red widgets cost 4 euros.</p></main>';
</script></body></html>`;
const CHATGPT_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';
const CONTENT_SIGNAL = 'search=yes, ai-input=yes, ai-train=no';

/** The README's nginx snippet ("Point your site at the edge"), read from the README and filled in as a user would: their token, the edge's address. */
function readmeSnippet(edgePort: number, siteRoot: string): string {
  const readme = readFileSync(path.join(__dirname, '..', '..', 'README.md'), 'utf8');
  const snippet = /```nginx\n([\s\S]*?)```/.exec(readme)?.[1];
  if (!snippet) throw new Error('README.md has no nginx snippet');
  const filled = snippet.replace('"bpc_pre_…"', `"${TOKEN}"`).replace('http://127.0.0.1:3002/', `http://127.0.0.1:${edgePort}/`);
  if (!filled.includes(TOKEN) || !filled.includes(`:${edgePort}/`)) throw new Error("the README's nginx snippet no longer names the token and the edge as this test expects");
  return `root ${siteRoot};\n${filled}`;
}

/** The form of the common pre-rendering guides: a named location that rewrites the URI to the page's URL (nginx escapes it: `?` as `%3F`). */
const guidesRewrite = (edgePort: number, siteRoot: string) => `
    root ${siteRoot};
    location / {
        try_files $uri @prerender;
    }
    location @prerender {
        proxy_set_header X-Prerender-Token "${TOKEN}";
        set $prerender 0;
        if ($http_user_agent ~* "googlebot|bingbot|yandex|baiduspider|twitterbot|facebookexternalhit|linkedinbot|slackbot") {
            set $prerender 1;
        }
        if ($prerender = 1) {
            rewrite .* /$scheme://$host$request_uri? break;
            proxy_pass http://127.0.0.1:${edgePort};
        }
        if ($prerender = 0) {
            rewrite .* /index.html break;
        }
    }`;

/**
 * The integrations the README tells users to put in front of the edge, for
 * real: Express with `prerender-node`, and nginx with the README's snippet
 * and with the guides' rewrite. One standalone service, its host passing bots
 * through to a test origin (no browser: the page's URL is what is tested).
 */
describe('pre-rendering middlewares in front of the edge (standalone mode)', () => {
  let running: RunningApps;
  let origin: TestOrigin;
  let siteRoot: string;
  let expressSite: PrerenderNodeSite;
  let nginx: RunningNginx;

  /** Bot answers and the page URL the edge should have recorded for each: checked together at the end (the explorer flushes once a second). */
  const sent: { requestId: string; url: string }[] = [];

  /** The edge's answer, passed on by the middleware: its cache header and the origin's page; its recording is checked last. */
  const expectPageFromEdge = (answer: RawAnswer, pagePath: string, recordedUrl: string) => {
    expect([answer.status, answer.body.toString()]).toEqual([200, originPage(pagePath)]);
    expect(['bypass', 'hit']).toContain(answer.headers['x-prerender-cache']);
    expect(answer.headers['x-request-id']).toEqual(expect.any(String));
    sent.push({ requestId: String(answer.headers['x-request-id']), url: recordedUrl });
  };

  beforeAll(async () => {
    origin = new TestOrigin((pagePath) => ({ status: 200, body: pagePath.startsWith('/agents/') ? AGENT_PAGE : originPage(pagePath) }));
    const config = testConfig('standalone', {
      scheduler: { enabled: false },
      render_service: { tabs: 1, reservation_percent: 100 },
      edge: { record_flush_ms: 50 },
      hosts: [{ ...bypassHost(await origin.start()), url_rules: [{ pattern: '^/agents/', action: 'render' }] }],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN), content_signal: CONTENT_SIGNAL }],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', 'middleware-integrations'));
    const edgePort = Number(new URL(running.urls.edge!).port);

    // Express as the README's snippet sets it up, its own route after the middleware.
    expressSite = await startPrerenderNodeSite(running.urls.edge!, TOKEN, SITE_ITSELF);
    prerender.addUserAgents(['ClaudeBot', 'OAI-SearchBot', 'DuckDuckBot']);

    siteRoot = mkdtempSync(path.join(tmpdir(), 'bpc-site-'));
    writeFileSync(path.join(siteRoot, 'index.html'), SITE_ITSELF);
    nginx = await startNginx([readmeSnippet(edgePort, siteRoot), guidesRewrite(edgePort, siteRoot)]);
  });

  afterAll(async () => {
    await nginx?.stop();
    await expressSite?.stop();
    await running?.close();
    await origin?.stop();
    if (siteRoot) rmSync(siteRoot, { recursive: true, force: true });
  });

  describe('Express with prerender-node', () => {
    it.each(PAGES)('serves a bot the page the edge answers for its full URL (%s)', async (pagePath) => {
      // The proxy in front of Express says the bot asked over https, as the README expects.
      const answer = await rawRequest(expressSite.url, pagePath, { headers: { host: SITE, 'user-agent': GOOGLEBOT, 'x-forwarded-proto': 'https' } });
      expectPageFromEdge(answer, pagePath, `https://${SITE}${pagePath}`);
    });

    it("sends the edge the crawlers the README adds to prerender-node's list", async () => {
      const claudeBot = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
      const answer = await rawRequest(expressSite.url, PAGES[0], { headers: { host: SITE, 'user-agent': claudeBot, 'x-forwarded-proto': 'https' } });
      expect([answer.status, answer.headers['x-prerender-cache']]).toEqual([200, expect.stringMatching(/^(hit|miss|bypass|stale)$/)]);
    });

    it('gives an agent that asks for Markdown the JavaScript-built page as Markdown, with the edge\'s headers (forwardHeaders passes its Accept)', async () => {
      const answer = await rawRequest(expressSite.url, '/agents/pricing', { headers: { host: SITE, 'user-agent': CHATGPT_USER, accept: 'text/markdown', 'x-forwarded-proto': 'https' } });
      const text = answer.body.toString();
      expect([answer.status, answer.headers['content-type'], answer.headers.vary, answer.headers['content-signal']]).toEqual([200, 'text/markdown; charset=utf-8', 'Accept, Accept-Encoding, User-Agent', CONTENT_SIGNAL]);
      expect(answer.headers['x-markdown-tokens']).toBe(String(countTokens(text)));
      expect(text).toContain('\n# Widget pricing\n');
      expect(text).toContain('Blue widgets cost 3 euros, as this script says.');
      expect(text).not.toMatch(/loading…|<script/);
      // The same page in HTML to a bot that does not ask for Markdown.
      const html = await rawRequest(expressSite.url, '/agents/pricing', { headers: { host: SITE, 'user-agent': GOOGLEBOT, 'x-forwarded-proto': 'https' } });
      expect([html.status, html.headers['content-type'], html.headers['x-prerender-cache']]).toEqual([200, 'text/html; charset=utf-8', 'hit']);
      expect(html.body.toString()).toContain('<h1>Widget pricing</h1>');
    }, 60_000);

    it("serves a person's browser Express's own route", async () => {
      const answer = await rawRequest(expressSite.url, PAGES[0], { headers: { host: SITE, 'user-agent': BROWSER } });
      expect([answer.status, answer.body.toString(), answer.headers['x-prerender-cache']]).toEqual([200, SITE_ITSELF, undefined]);
    });
  });

  describe.each([
    { form: "the README's proxy_pass", server: 0 },
    { form: "the guides' rewrite", server: 1 },
  ])('nginx with $form', ({ server }) => {
    it.each(PAGES)('serves a bot the page the edge answers for its full URL (%s)', async (pagePath) => {
      const answer = await rawRequest(nginx.urls[server], pagePath, { headers: { host: SITE, 'user-agent': GOOGLEBOT } });
      // nginx listens on plain http here: $scheme is http.
      expectPageFromEdge(answer, pagePath, `http://${SITE}${pagePath}`);
    });

    it("serves a person's browser the site itself", async () => {
      const answer = await rawRequest(nginx.urls[server], PAGES[0], { headers: { host: SITE, 'user-agent': BROWSER } });
      expect([answer.status, answer.body.toString(), answer.headers['x-prerender-cache']]).toEqual([200, SITE_ITSELF, undefined]);
    });
  });

  it("nginx with the README's snippet passes an agent's Accept: Markdown", async () => {
    const claudeUser = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Claude-User/1.0; +Claude-User@anthropic.com)';
    const answer = await rawRequest(nginx.urls[0], '/agents/pricing', { headers: { host: SITE, 'user-agent': claudeUser, accept: 'text/markdown, text/html;q=0.5' } });
    expect([answer.status, answer.headers['content-type'], answer.headers['content-signal']]).toEqual([200, 'text/markdown; charset=utf-8', CONTENT_SIGNAL]);
    expect(answer.body.toString()).toContain('Blue widgets cost 3 euros, as this script says.');
  }, 60_000);

  it('recorded each bot request with the full page URL the middleware sent', async () => {
    type Row = { request_id: string; url: string; bot_name: string };
    const query = () => running.runtime.ports.explorerStore!.query<Row>('SELECT request_id, url, bot_name FROM bot_requests FINAL WHERE request_id IN {ids:Array(String)}', { ids: sent.map((s) => s.requestId) });
    const rows = await until(query, (found) => found.length === sent.length, { timeoutMs: 20_000 });
    const recorded = new Map(rows.map((row) => [row.request_id, [row.url, row.bot_name]]));
    expect(sent.map(({ requestId }) => recorded.get(requestId))).toEqual(sent.map(({ url }) => [url, 'Googlebot']));
  });
});
