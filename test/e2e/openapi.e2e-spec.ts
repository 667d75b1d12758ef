import { readFileSync } from 'node:fs';
import path from 'node:path';
import { generateOpenApiDocuments, OPENAPI_FILES, OpenApiApp } from '../harness/openapi-documents';

const root = path.resolve(__dirname, '..', '..');

describe('OpenAPI documents', () => {
  let generated: Record<OpenApiApp, string>;

  beforeAll(async () => {
    generated = await generateOpenApiDocuments();
  }, 30_000);

  it.each(Object.keys(OPENAPI_FILES) as OpenApiApp[])('the committed copy of the %s document is the one the code serves (refresh with `npm run openapi`)', (app) => {
    const committed = readFileSync(path.join(root, OPENAPI_FILES[app]), 'utf8');
    expect(JSON.parse(generated[app])).toEqual(JSON.parse(committed));
    expect(generated[app]).toBe(committed);
  });

  it('documents the public cache operations with bearer auth, bodies, answers and the rate-limit answer', () => {
    const doc = JSON.parse(generated['public-api']);
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const recache = doc.paths['/api/websites/{website}/cache/recache'].post;
    expect(recache.security).toEqual([{ bearer: [] }]);
    expect(recache.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/RecacheWebsiteDto' });
    expect(Object.keys(recache.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '403', '429']));
    expect(Object.keys(recache.responses['429'].headers)).toEqual(expect.arrayContaining(['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']));
    expect(doc.components.schemas.RecacheWebsiteDto.properties.priority).toMatchObject({ enum: ['high', 'normal'], default: 'normal' });
    expect(doc.paths['/api/websites/{website}/cache/invalidate']).toBeDefined();
    expect(doc.paths['/api/websites/{website}/data-explorer/{explorerKey}/query']).toBeDefined();
    expect(Object.keys(doc.paths).some((p) => p.startsWith('/internal/admin'))).toBe(false);
  });

  it('documents the daemon API behind X-Internal-Auth', () => {
    const doc = JSON.parse(generated.daemon);
    expect(doc.components.securitySchemes['internal-key']).toEqual({ type: 'apiKey', in: 'header', name: 'X-Internal-Auth' });
    const recache = doc.paths['/internal/cache/recache'].post;
    expect(recache.security).toEqual([{ 'internal-key': [] }]);
    expect(doc.components.schemas.RequestRecacheDto.required).toEqual(expect.arrayContaining(['host_id', 'urls', 'priority']));
    expect(doc.paths['/status'].get).toBeDefined();
  });
});
