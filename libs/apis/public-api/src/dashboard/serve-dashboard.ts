import { readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Where scripts/build.mjs puts the dashboard (apps/dashboard, built by Vite): `<repo>/dist/dashboard`, from the compiled file or its source. */
export const DASHBOARD_DIST = dashboardDist(__dirname);

export function dashboardDist(moduleDir: string): string {
  const marker = `${path.sep}dist${path.sep}`;
  const at = moduleDir.lastIndexOf(marker);
  const repo = at >= 0 ? moduleDir.slice(0, at) : path.resolve(moduleDir, '../../../../..');
  return path.join(repo, 'dist', 'dashboard');
}

/** The API's own paths: never answered with the dashboard page (an unknown API path stays a 404 envelope). */
export const RESERVED_PREFIXES: readonly string[] = ['/api', '/internal', '/docs', '/health', '/metrics'];

/**
 * The page's headers: its scripts and styles come from this origin only (no
 * inline script: Vite emits none), it calls this origin only, and it is never
 * framed nor leaks its URL (a sign-in link's path) as a referrer.
 */
export const DASHBOARD_HTML_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-cache',
};

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><h1>The dashboard is not built yet</h1>
<p>Build it with <code>npm run build</code> (<code>npm start</code> builds it too, once, then only when its sources change), then reload this page.
It is built from <code>apps/dashboard</code> into <code>dist/dashboard</code>.</p>
<p>The API itself works: see <a href="/docs">/docs</a>.</p></body></html>`;

/** Whether a GET path is one of the dashboard's own pages (its router decides which): not the API's, not a file. */
export function isDashboardPage(urlPath: string, reserved: readonly string[]): boolean {
  if (reserved.some((prefix) => urlPath === prefix || urlPath.startsWith(`${prefix}/`))) return false;
  // Website pages: an id may hold dots (`example.com`).
  if (urlPath.startsWith('/w/')) return true;
  // A missing file (an old hashed asset, favicon.ico) is a 404, not the page.
  const last = urlPath.slice(urlPath.lastIndexOf('/') + 1);
  return !last.includes('.') && !urlPath.startsWith('/assets/');
}

function setAssetHeaders(reply: FastifyReply, filePath: string): void {
  if (filePath.endsWith('.html')) {
    reply.headers(DASHBOARD_HTML_HEADERS);
  } else if (filePath.includes(`${path.sep}assets${path.sep}`)) {
    // Vite names every asset by its content's hash: a changed file is a new name.
    reply.header('cache-control', 'public, max-age=31536000, immutable');
  } else {
    reply.header('cache-control', 'no-cache');
  }
}

/**
 * Serves the dashboard at `/`: its built files (hashed assets cached for
 * good, the page never), and its page for every GET of a path its client
 * router owns (SPA fallback), excluding `reserved` prefixes. Without a
 * build, the page says how to make one. Call from the app spec's
 * `configure`, before listening.
 */
export function serveDashboard(fastify: FastifyInstance, options: { root?: string; reserved?: readonly string[] } = {}): void {
  const root = options.root ?? DASHBOARD_DIST;
  const reserved = options.reserved ?? RESERVED_PREFIXES;
  let page: string | undefined;
  try {
    page = readFileSync(path.join(root, 'index.html'), 'utf8');
  } catch {
    page = undefined;
  }
  if (page !== undefined) {
    // One route per file found now (no wildcard): a request for anything else reaches the hook below or the 404.
    void fastify.register(fastifyStatic, { root, prefix: '/', wildcard: false, index: false, decorateReply: false, cacheControl: false, serveDotFiles: false, setHeaders: setAssetHeaders });
  }
  fastify.addHook('onRequest', async (request, reply: FastifyReply) => {
    if (request.routeOptions.url !== undefined) return;
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    if (!isDashboardPage(request.url.split('?')[0], reserved)) return;
    void reply.headers(DASHBOARD_HTML_HEADERS).type('text/html; charset=utf-8');
    if (page === undefined) return reply.code(503).send(NOT_BUILT_PAGE);
    return reply.code(200).send(page);
  });
}
