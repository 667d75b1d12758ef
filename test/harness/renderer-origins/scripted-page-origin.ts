import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { listenOnLoopback } from './loopback-server';

/** One request the origin answered, for assertions on what the renderer sent and when. */
export interface ScriptedPageHit {
  readonly path: string;
  readonly userAgent: string;
  readonly startedAt: number;
  endedAt?: number;
}

export interface ScriptedPageOrigin {
  readonly url: string;
  readonly hits: ScriptedPageHit[];
  /** Answers the /held requests waiting now; later ones wait for the next release. */
  release(): void;
  close(): Promise<void>;
}

const page = (body: string, script = ''): string =>
  `<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width"><title>t</title></head><body>${body}${script ? `<script>${script}</script>` : ''}</body></html>`;

type Route = (req: IncomingMessage, res: ServerResponse, query: URLSearchParams) => void;

/**
 * A small real HTTP origin for renderer tests (loopback, free port):
 *   /js        the DOM is changed by a script, after fetching /data.json
 *   /data.json JSON the page script loads
 *   /viewport  writes the window width the browser has into the DOM
 *   /slow      never answers (until the test closes the origin)
 *   /missing   404 with a page
 *   /moved     301 to /js, empty body
 *   /empty     200 with an empty body
 *   /broken    503
 *   /held?who=X a page answered when the test calls `release()`
 *   /soft-404  200, but a script adds <meta name="prerender-status-code" content="404">
 *   /soft-moved 200, but a script adds prerender-status-code 301 and prerender-header Location: /js?from=soft
 *   /soft-moved-here 200, but a script signals 302 to location.origin + /js (the origin's own address)
 *   /broken-says-ok 503, whose script signals prerender-status-code 200
 *   /huge      a script fills the DOM with 17 MiB of text (hidden: serialised, never laid out)
 */
export async function startScriptedPageOrigin(): Promise<ScriptedPageOrigin> {
  const hits: ScriptedPageHit[] = [];
  const held: (() => void)[] = [];
  const routes: Record<string, Route> = {
    '/js': (_req, res) =>
      html(
        res,
        200,
        page(
          '<div id="out">static</div>',
          `fetch('/data.json').then(r => r.json()).then(d => setTimeout(() => { document.getElementById('out').textContent = d.text; }, 50));`,
        ),
      ),
    '/data.json': (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ text: 'rendered by js' }));
    },
    '/viewport': (_req, res) => html(res, 200, page('<p id="w"></p>', `document.getElementById('w').textContent = 'width=' + window.innerWidth;`)),
    '/slow': () => undefined,
    '/missing': (_req, res) => html(res, 404, page('<h1>Not found</h1>'), { 'x-robots-tag': 'noindex' }),
    '/moved': (_req, res) => {
      res.writeHead(301, { location: '/js' });
      res.end();
    },
    '/empty': (_req, res) => html(res, 200, ''),
    '/broken': (_req, res) => html(res, 503, page('down')),
    '/held': (_req, res, query) => void held.push(() => html(res, 200, page(`<p>held ${query.get('who')}</p>`))),
    '/soft-404': (_req, res) => html(res, 200, page('<h1>No such product</h1>', `const m = document.createElement('meta'); m.name = 'prerender-status-code'; m.content = '404'; document.head.append(m);`)),
    '/soft-moved': (_req, res) =>
      html(res, 200, page('<p>moving</p>', `document.head.insertAdjacentHTML('beforeend', '<meta name="prerender-status-code" content="301"><meta name="prerender-header" content="Location: /js?from=soft">');`)),
    '/soft-moved-here': (_req, res) =>
      html(res, 200, page('<p>moving</p>', `document.head.insertAdjacentHTML('beforeend', '<meta name="prerender-status-code" content="302"><meta name="prerender-header" content="Location: ' + location.origin + '/js">');`)),
    '/broken-says-ok': (_req, res) =>
      html(res, 503, page('<p>down</p>', `document.head.insertAdjacentHTML('beforeend', '<meta name="prerender-status-code" content="200">');`)),
    '/huge': (_req, res) => html(res, 200, page('<p>small</p><div id="out" hidden></div>', `document.getElementById('out').textContent = 'x'.repeat(17 * 1024 * 1024);`)),
  };

  const server: Server = createServer((req, res) => {
    // The request target is a path: resolved against a base instead, `//host/x` would read as another host.
    const url = new URL(`http://origin${req.url ?? '/'}`);
    const hit: ScriptedPageHit = { path: `${url.pathname}${url.search}`, userAgent: req.headers['user-agent'] ?? '', startedAt: Date.now() };
    hits.push(hit);
    res.on('finish', () => (hit.endedAt = Date.now()));
    const route = routes[url.pathname];
    if (route) route(req, res, url.searchParams);
    else html(res, 404, page('no such route'));
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, hits, release: () => held.splice(0).forEach((answer) => answer()), close };
}

function html(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'set-cookie': 'session=secret', ...headers });
  res.end(body);
}
