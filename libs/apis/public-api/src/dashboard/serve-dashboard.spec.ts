import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import { dashboardDist, isDashboardPage, RESERVED_PREFIXES, serveDashboard } from './serve-dashboard';

describe('isDashboardPage', () => {
  const reserved = [...RESERVED_PREFIXES, '/exports/download'];
  it.each(['/', '/sign-in', '/w/demo', '/w/example.com', '/w/demo/explorer', '/no-websites'])('%s is a page of the dashboard', (path) => {
    expect(isDashboardPage(path, reserved)).toBe(true);
  });
  it.each(['/api', '/api/websites', '/internal/x', '/docs', '/docs/openapi.json', '/health/ready', '/metrics', '/exports/download/3', '/assets/gone.js', '/favicon.ico'])(
    '%s is not',
    (path) => {
      expect(isDashboardPage(path, reserved)).toBe(false);
    },
  );
  it('keeps a look-alike prefix as a page', () => {
    expect(isDashboardPage('/apis', reserved)).toBe(true);
  });
});

describe('dashboardDist', () => {
  it('finds <repo>/dist/dashboard from the compiled module and from its source', () => {
    expect(dashboardDist('/r/dist/libs/apis/public-api/src/dashboard')).toBe('/r/dist/dashboard');
    expect(dashboardDist('/r/libs/apis/public-api/src/dashboard')).toBe('/r/dist/dashboard');
  });
});

describe('serveDashboard', () => {
  let dist: string;
  beforeAll(() => {
    dist = mkdtempSync(path.join(tmpdir(), 'bpc-dashboard-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>dashboard</title><script type="module" src="/assets/app-abc123.js"></script>');
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  });
  afterAll(() => rmSync(dist, { recursive: true, force: true }));

  async function appWith(root: string) {
    const app = Fastify();
    app.get('/api/known', async () => ({ ok: true }));
    serveDashboard(app, { root, reserved: [...RESERVED_PREFIXES, '/exports/download'] });
    await app.ready();
    return app;
  }

  it('answers the page for the client router paths, with its security headers and no caching', async () => {
    const app = await appWith(dist);
    for (const url of ['/', '/sign-in', '/w/demo/explorer?mode=comparison&f=%5B%22url%22%5D']) {
      const page = await app.inject({ method: 'GET', url });
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('<title>dashboard</title>');
      expect(page.headers['cache-control']).toBe('no-cache');
      expect(page.headers['content-security-policy']).toContain("default-src 'self'");
      expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(page.headers['content-security-policy']).not.toContain('unsafe-inline');
      expect(page.headers['x-frame-options']).toBe('DENY');
      expect(page.headers['referrer-policy']).toBe('no-referrer');
    }
    await app.close();
  });

  it('serves hashed assets cached for good, and leaves the API, missing files and other methods alone', async () => {
    const app = await appWith(dist);
    const asset = await app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await app.inject({ method: 'GET', url: '/api/known' })).json()).toEqual({ ok: true });
    for (const url of ['/api/unknown', '/assets/gone-123.js', '/favicon.ico', '/exports/download/3', '/health/nothing']) {
      expect({ url, status: (await app.inject({ method: 'GET', url })).statusCode }).toEqual({ url, status: 404 });
    }
    expect((await app.inject({ method: 'POST', url: '/w/demo' })).statusCode).toBe(404);
    await app.close();
  });

  it('says in plain words how to build the dashboard when it is not built', async () => {
    const app = await appWith(path.join(dist, 'missing'));
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(503);
    expect(page.body).toContain('npm run build');
    expect((await app.inject({ method: 'GET', url: '/api/known' })).statusCode).toBe(200);
    await app.close();
  });
});
