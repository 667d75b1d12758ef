import { createServer, type Server } from 'node:http';
import { listenOnLoopback } from './loopback-server';

/** Which page every path serves: a plain good one (to store first) or its hostile one. */
export type PageVariant = 'good' | 'bad';

export interface BadPageOrigin {
  readonly url: string;
  /** Paths requested so far, in order (query strings included). */
  readonly hits: string[];
  /** Switches every path to its good or its bad page, for the requests that follow. */
  serve(variant: PageVariant): void;
  close(): Promise<void>;
}

/** Levels of nested elements that crash the tab's renderer: 3 000 already do in Chromium 156; 20 000 keeps a margin. */
const CRASHING_DEPTH = 20_000;

/** A script expression for about 50 MB of markup: 50 000 rows of 1 000 characters each. */
const HUGE_MARKUP = `('<p>' + 'x'.repeat(993) + '</p>').repeat(50000)`;

const page = (title: string, body: string, script = ''): string =>
  `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}${script ? `<script>${script}</script>` : ''}</body></html>`;

/** Content a bad page builds before it misbehaves: what fails it is the misbehaviour, never an empty body. */
const BUILT = `document.getElementById('out').textContent = 'built by the bad page';`;

/** The hostile pages by path, each with what it does. */
const BAD_PAGES: Record<string, string> = {
  // Never network-quiet: a request every 100 ms, forever.
  '/never-quiet': page('never quiet', '<div id="out"></div>', `${BUILT} let n = 0; setInterval(() => fetch('/tick?n=' + n++), 100);`),
  // Never yields again once loaded: the tab's main thread spins.
  '/busy-loop': page('busy loop', '<div id="out"></div>', `${BUILT} addEventListener('load', () => setTimeout(() => { for (;;) {} }, 0));`),
  // Kills its own renderer process: style and layout recurse once per nesting level until the stack overflows.
  '/crash': page(
    'crash',
    '<div id="out"></div>',
    `${BUILT} let node = document.body; for (let i = 0; i < ${CRASHING_DEPTH}; i++) node = node.appendChild(document.createElement('div')); node.textContent = 'deep';`,
  ),
  // Opens popups (script and a target=_blank click), shows every kind of dialog, then builds its content.
  '/popups': page(
    'popups',
    '<div id="out"></div><a id="blank" href="/popup-target?via=click" target="_blank">elsewhere</a>',
    `const popup = window.open('/popup-target?via=open');
     document.getElementById('blank').click();
     addEventListener('beforeunload', (event) => { event.preventDefault(); event.returnValue = 'stay'; });
     const answers = [alert('hello'), confirm('sure?'), prompt('name?', 'bot')];
     document.getElementById('out').textContent = 'popup ' + (popup ? 'opened' : 'blocked') + ', dialogs answered ' + answers.map(String).join(' ');`,
  ),
  '/popup-target': page('popup', '<p>popup</p>', `addEventListener('beforeunload', (event) => { event.preventDefault(); event.returnValue = 'stay'; });`),
  // Opens a popup whose own page shows a dialog (the popup shares the opener's renderer, and so its main thread).
  '/popup-dialog': page('popup dialog', '<div id="out"></div>', `const popup = window.open('/alerting-popup'); document.getElementById('out').textContent = 'popup ' + (popup ? 'opened' : 'blocked');`),
  '/alerting-popup': page('alerting popup', '<p>popup</p>', `alert('from the popup');`),
  // Leaves for another host once loaded.
  '/leaves': page('leaves', '<div id="out"></div>', `${BUILT} addEventListener('load', () => { location.href = 'http://other.test/'; });`),
  // Builds about 50 MB of markup, hidden: never laid out, so what ends the render is its size.
  '/huge-dom': page('huge', '<div id="out"></div><div id="rows" hidden></div>', `${BUILT} document.getElementById('rows').innerHTML = ${HUGE_MARKUP};`),
  // The same markup shown: Chromium lays 50 MB of text out for far longer than a render's timeout.
  '/huge-laid-out-dom': page('huge', '<div id="out"></div><div id="rows"></div>', `${BUILT} document.getElementById('rows').innerHTML = ${HUGE_MARKUP};`),
};

const goodPage = (pathname: string): string => page('good', `<h1>good page</h1><p>${pathname}</p>`);

/**
 * A real HTTP origin on loopback serving hostile pages (see `BAD_PAGES`)
 * behind a switch: with `serve('good')` every path answers a plain good
 * page, so a test can store a good entry for the very URL whose bad page it
 * renders next; `/good` is always good, `/tick` answers the never-quiet
 * page's fetches. Unknown paths are 404.
 */
export async function startBadPageOrigin(): Promise<BadPageOrigin> {
  const hits: string[] = [];
  let variant: PageVariant = 'good';
  const server: Server = createServer((req, res) => {
    // Resolved against a fixed base: the request target is a path, never a host.
    const url = new URL(`http://origin${req.url ?? '/'}`);
    hits.push(`${url.pathname}${url.search}`);
    if (url.pathname === '/tick') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    const bad = BAD_PAGES[url.pathname];
    if (url.pathname !== '/good' && bad === undefined) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(variant === 'bad' && bad ? bad : goodPage(url.pathname));
  });
  const { url, close } = await listenOnLoopback(server);
  return { url, hits, serve: (next) => void (variant = next), close };
}
