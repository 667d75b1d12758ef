import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { API_DELAY_MS, appScript, IMAGES_PER_PAGE, itemJson, PAGE_COUNT, pageHtml, pngImage, stylesheet } from './render-pages';

/**
 * The `render` bench's origin, run as a child process (`fork`) so that its
 * CPU is not counted as the renderers': every answer is built before it
 * reports its URL (`{ url }` over IPC); it stops with the parent's SIGTERM.
 */

interface Answer {
  readonly type: string;
  readonly body: Buffer;
  readonly cacheControl: string;
  readonly delayMs: number;
}

const answer = (type: string, body: string | Buffer, cacheControl: string, delayMs = 0): Answer => ({ type, body: Buffer.from(body), cacheControl, delayMs });

function answers(): Map<string, Answer> {
  const byPath = new Map<string, Answer>([
    ['/style.css', answer('text/css; charset=utf-8', stylesheet(), 'public, max-age=3600')],
    ['/static/app.js', answer('text/javascript; charset=utf-8', appScript(), 'public, max-age=3600')],
  ]);
  for (let n = 0; n < PAGE_COUNT; n += 1) {
    byPath.set(`/p/${n}`, answer('text/html; charset=utf-8', pageHtml(n), 'no-cache'));
    byPath.set(`/api/item/${n}.json`, answer('application/json', itemJson(n), 'no-store', API_DELAY_MS));
    for (let k = 0; k < IMAGES_PER_PAGE; k += 1) byPath.set(`/img/${n}-${k}.png`, answer('image/png', pngImage(n * IMAGES_PER_PAGE + k), 'public, max-age=86400'));
  }
  return byPath;
}

function send(res: ServerResponse, found: Answer | undefined): void {
  if (!found) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
    return;
  }
  res.writeHead(200, { 'content-type': found.type, 'content-length': found.body.length, 'cache-control': found.cacheControl });
  res.end(found.body);
}

const byPath = answers();
const server = createServer((req, res) => {
  const found = byPath.get(new URL(req.url ?? '/', 'http://origin').pathname);
  if (found?.delayMs) setTimeout(() => send(res, found), found.delayMs);
  else send(res, found);
});
server.listen(0, '127.0.0.1', () => process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }));
process.once('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
// The parent gone (IPC closed) ends the origin too: a failed bench must not leave it listening.
process.once('disconnect', () => process.exit(0));
