import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { OpenAPIObject } from '@nestjs/swagger';
import puppeteer, { type Browser } from 'puppeteer-core';
import { CHROMIUM_ARGS } from '@bpc/renderer';
import { createLogger, DOCS_PATH, OPENAPI_PATH } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { rawRequest, TEST_INTERNAL_KEY, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { OPENAPI_FILES, OpenApiApp, OpenApiDocuments, openApiDocumentsOf } from '../harness/openapi-documents';
import { redoclyLint } from '../harness/redocly-lint';
import { compileTypedClients, generateClientTypes, loadTypedClient } from '../harness/typed-clients';
import type { Answer } from '../typed-clients/answer';
import { issueToken } from './explorer-fixtures';

const root = path.resolve(__dirname, '..', '..');
const APPS = Object.keys(OPENAPI_FILES) as OpenApiApp[];
const PUBLIC_BASE_URL = 'https://api.example.test';
const PAGE = 'https://www.example.com/typed-client';

/** Every operation of a document, as `METHOD /path`. */
const operationsOf = (document: OpenAPIObject) => Object.entries(document.paths).flatMap(([p, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${p}`));

describe('OpenAPI documents', () => {
  let running: RunningApps;
  let documents: OpenApiDocuments;

  beforeAll(async () => {
    const config = testConfig('standalone', { scheduler: { enabled: false }, scheduler_control_api: true, exports: { public_base_url: PUBLIC_BASE_URL } });
    running = await startApps(standaloneApps, config, createLogger('silent', 'openapi'));
    documents = await openApiDocumentsOf(running);
  });
  afterAll(() => running?.close());

  const committed = (app: OpenApiApp) => JSON.parse(readFileSync(path.join(root, OPENAPI_FILES[app]), 'utf8')) as OpenAPIObject;

  it.each(APPS)('the committed copy of the %s document is the one the code makes (refresh with `npm run openapi`)', (app) => {
    expect(JSON.parse(documents.committed[app])).toEqual(committed(app));
    expect(documents.committed[app]).toBe(readFileSync(path.join(root, OPENAPI_FILES[app]), 'utf8'));
  });

  it('serves that document, its server taken from the configuration (never from the request)', async () => {
    const { servers: publicServers, ...publicRest } = documents.served['public-api'];
    expect(publicServers).toEqual([{ url: PUBLIC_BASE_URL }]);
    const { servers: daemonServers, ...daemonRest } = documents.served.daemon;
    expect(daemonServers).toEqual([{ url: running.urls.daemon }]);
    expect({ ...committed('public-api'), servers: undefined }).toEqual({ ...publicRest, servers: undefined });
    expect({ ...committed('daemon'), servers: undefined }).toEqual({ ...daemonRest, servers: undefined });
    // The committed copies name where the default configuration listens.
    expect(committed('public-api').servers).toEqual([{ url: 'http://127.0.0.1:3000' }]);
    expect(committed('daemon').servers).toEqual([{ url: 'http://127.0.0.1:3001' }]);
    for (const app of APPS) {
      const spoofed = await rawRequest(running.urls[app]!, OPENAPI_PATH, { headers: { host: 'evil.test', 'x-forwarded-host': 'evil.test', 'x-forwarded-proto': 'gopher' } });
      expect({ app, status: spoofed.status, servers: JSON.parse(spoofed.body.toString()).servers }).toEqual({ app, status: 200, servers: documents.served[app].servers });
    }
  });

  it.each(APPS)('the committed %s document passes `redocly lint` (recommended rules) with no error; the one warning left is the license it has none to name', async (app) => {
    const problems = await redoclyLint(OPENAPI_FILES[app]);
    expect(problems).toEqual([{ ruleId: 'info-license', severity: 'warn', message: 'Info object should contain `license` field.', pointer: '#/info' }]);
  }, 60_000);

  it('documents, per operation, every status the service answers with its envelope, the security and every path and query parameter', () => {
    const publicApi = committed('public-api');
    expect(publicApi.components!.securitySchemes!.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const statuses = (document: OpenAPIObject, p: string, method: string) => Object.keys((document.paths[p] as Record<string, { responses: object }>)[method].responses);
    const exportPath = '/api/websites/{website}/data-explorer/{explorerKey}/export';
    expect(statuses(publicApi, exportPath, 'post')).toEqual(['200', '400', '401', '403', '404', '409', '429', '500', '503']);
    expect(publicApi.paths[exportPath].post!.security).toEqual([{ bearer: [] }, { cookieAuth: [] }]);
    expect(publicApi.components!.securitySchemes!.cookieAuth).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'bpc_session' });
    expect(publicApi.info.description).toMatch(/X-CSRF-Token/);
    expect(publicApi.paths['/api/session'].post!.security).toEqual([]);
    expect(publicApi.paths['/api/session'].delete!.security).toEqual([{ cookieAuth: [] }]);
    expect(publicApi.paths[exportPath].post!.parameters!.map((p) => ('name' in p ? `${p.in}:${p.name}` : p.$ref)).sort()).toEqual(['path:explorerKey', 'path:website']);
    expect(publicApi.paths['/exports/download/{exportId}'].get!.parameters!.map((p) => ('name' in p ? `${p.in}:${p.name}` : p.$ref)).sort()).toEqual(['path:exportId', 'query:expires', 'query:sig']);
    expect(publicApi.paths['/exports/download/{exportId}'].get!.security).toEqual([]);
    expect(statuses(publicApi, '/exports/download/{exportId}', 'get')).toEqual(['200', '302', '403', '410', '500', '503']);
    expect(publicApi.components!.schemas!.QueryFilterDto).toMatchObject({ properties: { val: { oneOf: [{ type: 'string' }, { type: 'number' }] }, val2: { type: 'number' } } });
    const daemon = committed('daemon');
    expect(daemon.components!.securitySchemes!['internal-key']).toEqual({ type: 'apiKey', in: 'header', name: 'X-Internal-Auth' });
    expect(statuses(daemon, '/internal/scheduler/pause', 'post')).toEqual(['200', '400', '401', '403', '500']);
    expect(daemon.components!.schemas!.DaemonErrorDto).toMatchObject({ properties: { status: { enum: ['error'] } }, required: ['status', 'message'] });

    for (const document of [publicApi, daemon]) {
      for (const [p, item] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(item as Record<string, OpenAPIObject['paths'][string]['get']>)) {
          const where = `${method.toUpperCase()} ${p}`;
          const templated = [...p.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
          const inPath = (operation!.parameters ?? []).flatMap((param) => ('in' in param && param.in === 'path' ? [param.name] : [])).sort();
          expect({ where, inPath }).toEqual({ where, inPath: templated });
          expect({ where, security: operation!.security !== undefined }).toEqual({ where, security: true });
          for (const [status, response] of Object.entries(operation!.responses)) {
            // Successes and redirects (the download's optional 302 to a presigned URL) carry no error envelope.
            if (status.startsWith('2') || status.startsWith('3')) continue;
            const schema = (response as { content?: Record<string, { schema?: { $ref?: string } }> }).content?.['application/json']?.schema?.$ref;
            expect({ where, status, schema }).toEqual({ where, status, schema: expect.stringMatching(document === daemon ? /DaemonErrorDto$/ : /(PublicErrorDto|ExportSlotBusyErrorDto)$/) });
          }
        }
      }
    }
  });

  describe('through a client generated with openapi-typescript and called with openapi-fetch', () => {
    beforeAll(async () => {
      await Promise.all([generateClientTypes(OPENAPI_FILES['public-api'], 'public-api'), generateClientTypes(OPENAPI_FILES.daemon, 'daemon-api')]);
    }, 60_000);

    /** An answer as expected: a status the document lists for the operation. */
    const called = (method: string, p: string, status: number, error?: string) => ({ method, path: p, status, documented: true, ...(error === undefined ? {} : { error }) });

    /** Each answer, and whether the document lists its status for that operation. */
    const checked = (answers: Answer[], document: OpenAPIObject) =>
      answers.map((a) => ({ ...a, documented: Object.keys(document.paths[a.path]?.[a.method]?.responses ?? {}).includes(String(a.status)) }));

    it('a call to every operation compiles (tsc, strict) against the generated types', () => {
      expect(compileTypedClients()).toEqual([]);
    }, 60_000);

    it('every public operation answers as documented, through the paths and parameters the document names', async () => {
      const api = running.urls['public-api']!;
      const { token } = await issueToken(api, { user: 'tina', website: 'demo', role: 'manager' });
      const { callPublicApi } = loadTypedClient<{ callPublicApi: (target: object) => Promise<Answer[]> }>('public-api-calls');
      const answers = checked(await callPublicApi({ baseUrl: api, token, website: 'demo', pageUrl: PAGE }), committed('public-api'));
      expect(answers).toEqual([
        called('get', '/api/websites/{website}/data-explorer', 200),
        called('get', '/api/websites/{website}/data-explorer', 401, 'UNAUTHENTICATED'),
        called('post', '/api/websites/{website}/data-explorer/{explorerKey}/query', 200),
        called('post', '/api/websites/{website}/data-explorer/{explorerKey}/query', 400, 'VALIDATION_FAILED perPage'),
        called('post', '/api/websites/{website}/insights/summary', 200),
        called('post', '/api/websites/{website}/insights/timeseries', 200),
        called('post', '/api/websites/{website}/insights/timeseries', 400, 'VALIDATION_FAILED interval'),
        called('post', '/api/websites/{website}/insights/bot-categories', 200),
        called('post', '/api/websites/{website}/insights/bot-categories', 400, 'VALIDATION_FAILED filters[0].val'),
        called('post', '/api/websites/{website}/insights/seo', 200),
        called('post', '/api/websites/{website}/insights/ai-crawlers', 200),
        called('post', '/api/websites/{website}/insights/ai-crawlers', 400, 'VALIDATION_FAILED hostname'),
        called('get', '/api/websites/{website}/renders', 200),
        called('post', '/api/websites/{website}/renders/query', 200),
        called('post', '/api/websites/{website}/renders/query', 400, 'VALIDATION_FAILED filters[0].val'),
        called('post', '/api/websites/{website}/renders/timeseries', 200),
        called('post', '/api/websites/{website}/renders/export', 200),
        called('post', '/api/websites/{website}/search-performance/import', 200),
        called('post', '/api/websites/{website}/cache/recache', 200),
        called('get', '/api/websites/{website}/cache/queue', 200),
        called('get', '/api/websites/{website}/cache/entries', 200),
        called('get', '/api/websites/{website}/cache/entries', 404, 'NOT_FOUND url'),
        called('post', '/api/websites/{website}/cache/entries/query', 200),
        called('post', '/api/websites/{website}/cache/entries/query', 400, 'VALIDATION_FAILED pattern'),
        called('post', '/api/websites/{website}/cache/entries/invalidate', 200),
        called('get', '/api/websites/{website}/cache/receipts/{receiptId}', 200),
        called('get', '/api/websites/{website}/cache/receipts/{receiptId}', 404, 'RECEIPT_NOT_FOUND'),
        called('post', '/api/websites/{website}/cache/invalidate', 200),
        called('post', '/api/websites/{website}/cache/recache-sitemap', 400, 'VALIDATION_FAILED sitemapUrl'),
        called('get', '/api/websites/{website}/alerts/deliveries', 200),
        called('get', '/api/websites/{website}/alerts/deliveries', 400, 'VALIDATION_FAILED perPage'),
        called('post', '/api/session', 200),
        called('post', '/api/session', 400, 'VALIDATION_FAILED token'),
        called('get', '/api/session', 200),
        called('get', '/api/websites', 200),
        called('delete', '/api/session', 204),
        called('post', '/api/websites/{website}/data-explorer/{explorerKey}/export', 200),
        called('get', '/api/websites/{website}/data-explorer/export/{exportId}/status', 200),
        called('get', '/api/websites/{website}/data-explorer/export/{exportId}/status', 404, 'EXPORT_NOT_FOUND'),
        called('get', '/api/websites/{website}/data-explorer/exports', 200),
        called('get', '/exports/download/{exportId}', 200),
        called('get', '/exports/download/{exportId}', 403, 'DOWNLOAD_LINK_INVALID'),
      ]);
      expect(new Set(answers.map((a) => `${a.method.toUpperCase()} ${a.path}`))).toEqual(new Set(operationsOf(committed('public-api'))));
    }, 60_000);

    it('every daemon operation answers as documented', async () => {
      const { callDaemonApi } = loadTypedClient<{ callDaemonApi: (target: object) => Promise<Answer[]> }>('daemon-api-calls');
      const answers = checked(await callDaemonApi({ baseUrl: running.urls.daemon, internalKey: TEST_INTERNAL_KEY, hostId: 1, pageUrl: PAGE }), committed('daemon'));
      expect(answers).toEqual([
        called('post', '/internal/cache/recache', 200),
        called('post', '/internal/cache/recache', 401, 'missing or invalid X-Internal-Auth'),
        called('post', '/internal/cache/recache', 400, expect.stringContaining('urls')),
        called('post', '/internal/cache/queue/purge', 200),
        called('post', '/internal/cache/recache/pause', 200),
        called('post', '/internal/cache/recache/resume', 200),
        called('post', '/internal/cache/invalidate', 200),
        called('get', '/status', 200),
        called('post', '/internal/scheduler/pause', 200),
        called('post', '/internal/scheduler/resume', 200),
      ]);
      expect(new Set(answers.map((a) => `${a.method.toUpperCase()} ${a.path}`))).toEqual(new Set(operationsOf(committed('daemon'))));
    }, 60_000);
  });

  describe('API reference page at /docs', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await puppeteer.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS] });
    }, 60_000);
    afterAll(() => browser?.close());

    it.each(APPS)('the %s serves Swagger UI, no token needed, every asset from itself: it shows every operation offline', async (app) => {
      const base = running.urls[app]!;
      const html = await fetch(`${base}${DOCS_PATH}`);
      expect({ status: html.status, type: html.headers.get('content-type') }).toEqual({ status: 200, type: expect.stringMatching(/^text\/html/) });

      const page = await browser.newPage();
      const requested: string[] = [];
      const failed: string[] = [];
      // Anything but this app's own address is refused: the page must not need the network.
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        requested.push(request.url());
        if (request.url().startsWith(`${base}/`) || request.url().startsWith('data:')) void request.continue();
        else void request.abort();
      });
      page.on('requestfailed', (request) => failed.push(request.url()));
      page.on('response', (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      });
      await page.goto(`${base}${DOCS_PATH}`, { waitUntil: 'networkidle0' });
      const operations = operationsOf(committed(app));
      await page.waitForFunction(`document.querySelectorAll('.opblock').length === ${operations.length}`, { timeout: 20_000 });
      const shown = await page.$$eval('.opblock-summary-path', (nodes) => nodes.map((n) => n.getAttribute('data-path')));
      // For a person to look at: .tmp/docs-<app>.png.
      mkdirSync(path.join(root, '.tmp'), { recursive: true });
      await page.screenshot({ path: path.join(root, '.tmp', `docs-${app}.png`), fullPage: true });
      await page.close();

      expect(new Set(shown)).toEqual(new Set(operations.map((o) => o.split(' ')[1])));
      expect({ failed, foreign: requested.filter((u) => !u.startsWith(`${base}/`) && !u.startsWith('data:')) }).toEqual({ failed: [], foreign: [] });
      expect(requested.some((u) => u.endsWith('/swagger-ui-bundle.js'))).toBe(true);
    }, 60_000);
  });
});
