import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createConnectorServer } from './connector-server';
import type { PublicApiClient } from './api-client';
import type { OpenApiDocument } from './openapi-schemas';

const PUBLISHED = JSON.parse(readFileSync(path.resolve(__dirname, '../../../../deploy/openapi/public-api.json'), 'utf8')) as OpenApiDocument;

describe('a connector server per /mcp request', () => {
  const api: PublicApiClient = async () => ({ status: 200, body: {} });

  it('shares one JSON Schema validator instead of building an Ajv per server (about 2 ms of CPU a request)', () => {
    const validatorOf = (server: object) => (server as { _jsonSchemaValidator?: unknown })._jsonSchemaValidator;
    const first = createConnectorServer(api, PUBLISHED);
    const second = createConnectorServer(api, PUBLISHED);
    expect(validatorOf(first)).toBeDefined();
    expect(validatorOf(first)).toBe(validatorOf(second));
  });
});
