import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { listenOnLoopback } from './loopback-server';

/** One request the origin answered. */
export interface DoneOriginHit {
  readonly path: string;
}

export interface DoneTestOrigin {
  readonly url: string;
  readonly hits: DoneOriginHit[];
  close(): Promise<void>;
}

const page = (body: string, script: string): string =>
  `<!DOCTYPE html><html><head><title>t</title></head><body>${body}<script>${script}</script></body></html>`;

/** Builds `<p id="out">` from /data.json, as a single-page app does. */
const BUILD_FROM_DATA = `fetch('/data.json').then(r => r.json()).then(d => { document.getElementById('out').textContent = d.text; });`;

/**
 * Pages for when a render is done and what a kept tab may not carry over
 * (loopback, free port):
 *   /long-poll      builds its content, and keeps a request open forever (/hold)
 *   /event-source   builds its content, and listens to an EventSource that never ends (/stream)
 *   /websocket      builds its content, and keeps a WebSocket open (/ws)
 *   /beacon         builds its content, and sends a beacon never answered (/hold)
 *   /prerender-ready holds window.prerenderReady false for 1.5 s with the network quiet, then builds its content
 *   /never-ready    holds window.prerenderReady false forever, its content built
 *   /isolation/write stores what a page can: cookies, local and session storage, IndexedDB, Cache Storage, a service worker, window.name, an HTTP-cached stylesheet
 *   /isolation/read  writes what it finds of all that into #out
 */
export async function startDoneTestOrigin(): Promise<DoneTestOrigin> {
  const hits: DoneOriginHit[] = [];
  const held = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  const hold = (res: ServerResponse): void => {
    held.add(res);
    res.on('close', () => held.delete(res));
  };
  const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
    '/data.json': (_req, res) => send(res, 200, 'application/json', JSON.stringify({ text: 'built by script' })),
    '/hold': (_req, res) => hold(res),
    '/stream': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': open\n\n');
      hold(res);
    },
    '/long-poll': (_req, res) => send(res, 200, 'text/html', page('<p id="out">static</p>', `fetch('/hold'); ${BUILD_FROM_DATA}`)),
    '/event-source': (_req, res) => send(res, 200, 'text/html', page('<p id="out">static</p>', `new EventSource('/stream'); ${BUILD_FROM_DATA}`)),
    '/websocket': (_req, res) => send(res, 200, 'text/html', page('<p id="out">static</p>', `new WebSocket('ws://' + location.host + '/ws'); ${BUILD_FROM_DATA}`)),
    '/beacon': (_req, res) => send(res, 200, 'text/html', page('<p id="out">static</p>', `navigator.sendBeacon('/hold', 'seen'); ${BUILD_FROM_DATA}`)),
    '/prerender-ready': (_req, res) =>
      send(
        res,
        200,
        'text/html',
        page('<p id="out">static</p>', `window.prerenderReady = false; setTimeout(() => { document.getElementById('out').textContent = 'ready at last'; window.prerenderReady = true; }, 1500);`),
      ),
    '/never-ready': (_req, res) => send(res, 200, 'text/html', page('<p id="out">static</p>', `window.prerenderReady = false; ${BUILD_FROM_DATA}`)),
    '/cached.css': (_req, res) => send(res, 200, 'text/css', 'p { color: black }', { 'cache-control': 'public, max-age=3600' }),
    '/sw.js': (_req, res) => send(res, 200, 'text/javascript', `self.addEventListener('fetch', () => undefined);`),
    '/isolation/write': (_req, res) =>
      send(
        res,
        200,
        'text/html',
        page(
          '<link rel="stylesheet" href="/cached.css"><p id="out">writing</p>',
          `document.cookie = 'tracker=1; path=/; max-age=3600';
           localStorage.setItem('k', 'v'); sessionStorage.setItem('k', 'v'); window.name = 'left behind';
           Promise.all([
             new Promise((ok) => { const r = indexedDB.open('db1'); r.onupgradeneeded = () => r.result.createObjectStore('s'); r.onsuccess = () => ok(); r.onerror = () => ok(); }),
             caches.open('c1').then((c) => c.put('/x', new Response('y'))),
             navigator.serviceWorker.register('/sw.js').then((reg) => new Promise((ok) => { const w = reg.installing || reg.waiting || reg.active; if (!w || w.state === 'activated') return ok(); w.addEventListener('statechange', () => w.state === 'activated' && ok()); })),
           ]).then(() => { document.getElementById('out').textContent = 'written'; }, (e) => { document.getElementById('out').textContent = 'failed ' + e; });`,
        ),
      ),
    '/isolation/read': (_req, res) =>
      send(
        res,
        200,
        'text/html',
        page(
          '<link rel="stylesheet" href="/cached.css"><p id="out">reading</p>',
          `Promise.all([indexedDB.databases(), caches.keys(), navigator.serviceWorker.getRegistrations()]).then(([dbs, keys, regs]) => {
             document.getElementById('out').textContent = 'found ' + JSON.stringify({ cookie: document.cookie, local: localStorage.length, session: sessionStorage.length, name: window.name, databases: dbs.length, caches: keys.length, serviceWorkers: regs.length, history: history.length });
           });`,
        ),
      ),
  };
  const server = createServer((req, res) => {
    const path = new URL(`http://origin${req.url ?? '/'}`).pathname;
    hits.push({ path });
    const route = routes[path];
    if (route) route(req, res);
    else send(res, 404, 'text/html', page('no such route', ''));
  });
  // A WebSocket that opens and then says nothing: the handshake, by hand (RFC 6455 §4.2.2).
  server.on('upgrade', (req: IncomingMessage, socket: Socket) => {
    hits.push({ path: req.url ?? '' });
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
  });
  const listening = await listenOnLoopback(server);
  return {
    url: listening.url,
    hits,
    close: () => {
      // Upgraded sockets are no longer the server's connections: ended here.
      for (const socket of sockets) socket.destroy();
      return listening.close();
    },
  };
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, ...headers });
  res.end(body);
}
