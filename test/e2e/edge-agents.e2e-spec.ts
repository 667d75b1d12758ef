import { gunzipSync } from 'node:zlib';
import { countTokens } from 'gpt-tokenizer';
import { sha256Hex } from '@bpc/domain';
import { BotRequestRecordedPayload, TOPICS } from '@bpc/events';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { metricValue, OriginAnswer, RawAnswer, rawRequest, RuntimeMode, startPrerenderNodeSite, testConfig, TestOrigin, until } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';

const TOKEN = 'edge-agents-token';
const SIGNAL = 'search=yes, ai-input=yes, ai-train=no';
const CLAUDEBOT = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)';
const CHATGPT_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** In prerender-node's crawler list; not in the website's `markdown_for_agents`: it gets Markdown only by asking. */
const PERPLEXITY_USER = 'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0; +https://perplexity.ai/perplexity-user)';
const MARKDOWN = 'text/markdown; charset=utf-8';

/** A page whose content only its script builds: the origin's HTML is an empty shell, as a JavaScript app's is. */
const jsApp = (build: string) => `<!DOCTYPE html><html lang="en"><head><title>shell</title><meta name="description" content="How to choose a widget."></head>
<body><nav><a href="/">Home</a> <a href="/shop">Shop</a></nav><div id="app">loading…</div><script>${build}</script></body></html>`;
const GUIDE = jsApp(`document.title = 'Choosing a widget';
document.getElementById('app').innerHTML = '<main><article><h1>Choosing a widget</h1>'
  + Array.from({ length: 6 }, (_, n) => '<p>Paragraph ' + n + ' was written by JavaScript, and explains at some length why a careful reader picks a blue widget.</p>').join('')
  + '<table><thead><tr><th>Size</th><th>Width</th></tr></thead><tbody><tr><td>Small</td><td>2 cm</td></tr></tbody></table>'
  + '<p>See the <a href="/faq">FAQ</a>.</p></article></main>';`);
/** Its Markdown is longer than the cap (1,000,000 characters). */
const HUGE = jsApp(`document.getElementById('app').innerHTML = '<main>' + Array.from({ length: 12000 }, (_, n) => '<p>Paragraph ' + n + ' of a very long page, long enough that its Markdown goes over the cap.</p>').join('') + '</main>';`);

/** Both modes, real Chromium renders (one tab), a website that turns every agent feature on. */
describe.each<RuntimeMode>(['standalone', 'cluster'])('Markdown for agents and llms.txt at the edge (%s mode)', (mode) => {
  let running: RunningApps;
  let origin: TestOrigin;
  /** Request ids answered, and the format each should be recorded with. */
  const sent = new Map<string, 'html' | 'markdown'>();

  beforeAll(async () => {
    origin = new TestOrigin((path): OriginAnswer => {
      if (path === '/guide' || path === '/other') return { status: 200, body: GUIDE };
      if (path === '/huge') return { status: 200, body: HUGE };
      if (path === '/moved') return { status: 301, body: '', headers: { location: '/guide' } };
      if (path === '/feed.json') return { status: 200, body: '{"items":[]}', headers: { 'content-type': 'application/json' } };
      return { status: 404, body: '<html><body><h1>Not found</h1></body></html>' };
    });
    const config = testConfig(mode, {
      scheduler: { enabled: false },
      render_service: { tabs: 1, reservation_percent: 100 },
      edge: { record_flush_ms: 50, render_timeout_ms: 60_000 },
      hosts: [
        {
          host_id: 1,
          hostnames: ['www.example.com'],
          origin: await origin.start(),
          dimensions: [{ id: 1, name: 'desktop', action: 'render' }],
          url_rules: [{ pattern: '^/feed', action: 'bypass' }],
        },
      ],
      websites: [
        {
          id: 'demo',
          host_id: 1,
          account_id: 'acme',
          prerender_token_sha256: sha256Hex(TOKEN),
          name: 'Example Guides',
          summary: 'Guides to widgets.',
          llms_txt: true,
          content_signal: SIGNAL,
          markdown_for_agents: ['ChatGPT-User'],
        },
      ],
    });
    running = await startApps(standaloneApps, config, createLogger('silent', `edge-agents-${mode}`));
  });

  afterAll(async () => {
    await running?.close();
    await origin?.stop();
  });

  const ask = async (path: string, userAgent: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawAnswer> => {
    const answer = await rawRequest(running.urls.edge!, `/https://www.example.com${path}`, { method, headers: { 'x-prerender-token': TOKEN, 'user-agent': userAgent, ...headers } });
    const requestId = answer.headers['x-request-id'];
    if (typeof requestId === 'string' && answer.status < 500) sent.set(requestId, answer.headers['content-type'] === MARKDOWN || /llms\.txt$/.test(path) ? 'markdown' : 'html');
    return answer;
  };
  const markdownOf = (answer: RawAnswer) => answer.body.toString();

  it('renders a miss, then answers an agent that asks for Markdown with the JavaScript-built content, and converts it once', async () => {
    const miss = await ask('/guide', CLAUDEBOT, { accept: 'text/markdown' });
    expect([miss.status, miss.headers['content-type'], miss.headers['x-prerender-cache']]).toEqual([200, MARKDOWN, 'miss']);
    const text = markdownOf(miss);
    expect(text).toMatch(/^---\ntitle: "Choosing a widget"\nurl: "https:\/\/www\.example\.com\/guide"\ndescription: "How to choose a widget\."\nlang: "en"\nrendered_at: "/);
    expect(text).toContain('\n# Choosing a widget\n');
    expect(text).toContain('Paragraph 5 was written by JavaScript');
    expect(text).toContain('| Size | Width |');
    expect(text).toContain('[FAQ](https://www.example.com/faq)');
    expect(text).not.toMatch(/loading…|Shop|<script|document\.title/);
    expect(miss.headers).toMatchObject({ vary: 'Accept, Accept-Encoding, User-Agent', 'x-markdown-tokens': String(countTokens(text)), 'content-signal': SIGNAL });

    const hit = await ask('/guide', CLAUDEBOT, { accept: 'text/markdown, text/html;q=0.9, */*;q=0.8' });
    expect([hit.status, hit.headers['x-prerender-cache'], hit.body.equals(miss.body)]).toEqual([200, 'hit', true]);
    expect(origin.hits.get('/guide')).toBe(1);
    const metrics = await (await fetch(`${running.urls.edge}/metrics`)).text();
    expect(metricValue(metrics, 'bpc_edge_markdown_conversions_total{result="converted"}')).toBe(1);
    expect(metricValue(metrics, 'bpc_edge_markdown_cache_bytes')).toBeGreaterThan(Buffer.byteLength(text));
  }, 60_000);

  it('answers the same render in HTML to a bot that does not prefer Markdown, with Vary: Accept', async () => {
    for (const accept of [undefined, 'text/html, text/markdown', 'text/html;q=0.9, text/markdown;q=0.5', '*/*']) {
      const answer = await ask('/guide', GOOGLEBOT, accept ? { accept } : {});
      expect([answer.status, answer.headers['content-type'], answer.headers.vary, answer.headers['x-markdown-tokens'], answer.headers['content-signal']]).toEqual([
        200,
        'text/html; charset=utf-8',
        'Accept, Accept-Encoding, User-Agent',
        undefined,
        undefined,
      ]);
      expect(answer.body.toString()).toContain('Paragraph 5 was written by JavaScript');
    }
  });

  it("through prerender-node (Express, forwardHeaders passes its Accept) gives an agent that asks for Markdown the JavaScript-built page, with the edge's headers", async () => {
    const site = await startPrerenderNodeSite(running.urls.edge!, TOKEN, '<html><body>the site itself</body></html>');
    try {
      const answer = await rawRequest(site.url, '/guide', { headers: { host: 'www.example.com', 'user-agent': PERPLEXITY_USER, accept: 'text/markdown', 'x-forwarded-proto': 'https' } });
      const text = answer.body.toString();
      expect([answer.status, answer.headers['content-type'], answer.headers.vary, answer.headers['content-signal']]).toEqual([200, MARKDOWN, 'Accept, Accept-Encoding, User-Agent', SIGNAL]);
      expect(answer.headers['x-markdown-tokens']).toBe(String(countTokens(text)));
      expect(text).toContain('\n# Choosing a widget\n');
      expect(text).toContain('Paragraph 5 was written by JavaScript');
      expect(text).not.toMatch(/loading…|<script|document\.title/);
      sent.set(String(answer.headers['x-request-id']), 'markdown');
    } finally {
      await site.stop();
    }
  }, 60_000);

  it('gives a listed agent Markdown without asking, gzipped when it accepts gzip, and HEAD its headers only', async () => {
    const answer = await ask('/guide', CHATGPT_USER, { 'accept-encoding': 'gzip' });
    expect([answer.headers['content-type'], answer.headers['content-encoding']]).toEqual([MARKDOWN, 'gzip']);
    const text = gunzipSync(answer.body).toString();
    expect(text).toContain('# Choosing a widget');
    expect(answer.headers['x-markdown-tokens']).toBe(String(countTokens(text)));
    const head = await ask('/guide', CHATGPT_USER, {}, 'HEAD');
    expect([head.status, head.headers['content-type'], head.headers['content-length'], head.body.length]).toEqual([200, MARKDOWN, String(Buffer.byteLength(text)), 0]);
  });

  it('keeps redirects, error pages and bypassed answers as they are for an agent asking for Markdown', async () => {
    const moved = await ask('/moved', CLAUDEBOT, { accept: 'text/markdown' });
    expect([moved.status, moved.headers.location, moved.headers['content-type'] === MARKDOWN]).toEqual([301, 'https://www.example.com/guide', false]);
    const missing = await ask('/missing', CLAUDEBOT, { accept: 'text/markdown' });
    expect([missing.status, missing.headers['content-type']]).toEqual([404, 'text/html; charset=utf-8']);
    const feed = await ask('/feed.json', CLAUDEBOT, { accept: 'text/markdown' });
    expect([feed.status, feed.headers['content-type'], feed.body.toString(), feed.headers.vary]).toEqual([200, 'application/json', '{"items":[]}', 'Accept, Accept-Encoding, User-Agent']);
  }, 60_000);

  it('reads garbage, huge and q-value-laden Accept headers without failing', async () => {
    const answers = await Promise.all(
      [';;;,,,===', 'text/markdown;q=abc', `${'x/y;q=0.1, '.repeat(700)}text/markdown`, 'text/markdown;q=0', 'text/markdown;;;q=;q=2;q'].map((accept) => ask('/guide', CLAUDEBOT, { accept })),
    );
    expect(answers.map((a) => [a.status, a.headers['content-type']])).toEqual([
      [200, 'text/html; charset=utf-8'],
      [200, 'text/html; charset=utf-8'],
      [200, MARKDOWN],
      [200, 'text/html; charset=utf-8'],
      // Only Markdown named, its broken parameters ignored (negotiator's reading).
      [200, MARKDOWN],
    ]);
  });

  it('cuts a page whose Markdown would exceed the cap, and says so', async () => {
    const answer = await ask('/huge', CLAUDEBOT, { accept: 'text/markdown' });
    expect([answer.status, answer.headers['content-type']]).toEqual([200, MARKDOWN]);
    const text = markdownOf(answer);
    expect(text.length).toBeLessThan(1_000_200);
    expect(text).toMatch(/\[Truncated: the page is longer than 1000000 characters of Markdown\.\]\n$/);
  }, 90_000);

  it('serves llms.txt from the cached pages: text/plain, or text/markdown when asked, with the content signal', async () => {
    await ask('/other', GOOGLEBOT);
    const plain = await ask('/llms.txt', CLAUDEBOT);
    expect([plain.status, plain.headers['content-type'], plain.headers['content-signal'], plain.headers['x-prerender-cache']]).toEqual([200, 'text/plain; charset=utf-8', SIGNAL, 'hit']);
    const text = plain.body.toString();
    expect(text.startsWith('# Example Guides\n\n> Guides to widgets.\n\n## Pages\n\n')).toBe(true);
    expect(text).toContain('- [Choosing a widget](https://www.example.com/guide): How to choose a widget.\n');
    expect(text).toContain('(https://www.example.com/other)');
    expect(text).not.toMatch(/moved|missing|feed\.json/);
    const markdown = await ask('/llms.txt', CLAUDEBOT, { accept: 'text/markdown', 'accept-encoding': 'gzip' });
    expect([markdown.headers['content-type'], markdown.headers['content-encoding'], gunzipSync(markdown.body).toString()]).toEqual([MARKDOWN, 'gzip', text]);
    // The origin was never asked for it: the edge answers it.
    expect(origin.hits.get('/llms.txt')).toBeUndefined();
  }, 60_000);

  it('records every bot request with the format it was answered in', async () => {
    const seen = new Map<string, string>();
    const subscription = await running.runtime.ports.eventLog!.subscribe({
      groupId: `edge-agents-reader-${mode}`,
      topics: [TOPICS.botRequests],
      handleBatch: async (batch) => {
        for (const record of batch.records) {
          const payload = record.event.payload as BotRequestRecordedPayload;
          seen.set(payload.requestId, payload.format ?? 'absent');
        }
      },
    });
    try {
      await until(
        async () => [...sent.keys()].every((id) => seen.has(id)),
        (done) => done,
        { timeoutMs: 20_000, what: 'every answered request in the log' },
      );
    } finally {
      await subscription.stop();
    }
    expect([...sent.keys()].map((id) => seen.get(id))).toEqual([...sent.values()]);
    expect(new Set(sent.values())).toEqual(new Set(['html', 'markdown']));
  }, 30_000);
});
