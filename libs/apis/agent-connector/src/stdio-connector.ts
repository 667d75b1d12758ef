import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { AGENT_CLIENT_HEADER, AGENT_CLIENT_LABEL } from '@bpc/public-api';
import { OPENAPI_PATH } from '@bpc/platform';
import { httpApiClient } from './api-client';
import { createConnectorServer } from './connector-server';
import type { OpenApiDocument } from './openapi-schemas';

export interface StdioConnectorOptions {
  /** The public API's base URL, e.g. https://api.example.com. */
  readonly url: string;
  readonly token: string;
}

/** The API's OpenAPI document (open, no token): the tools' input schemas come from its components. */
async function fetchOpenApi(url: string): Promise<OpenApiDocument> {
  const at = `${url.replace(/\/+$/, '')}${OPENAPI_PATH}`;
  const response = await fetch(at).catch((error: Error) => {
    throw new Error(`cannot reach the public API at ${at}: ${String((error.cause as Error | undefined)?.message ?? error.message)}`);
  });
  if (!response.ok) throw new Error(`${url}${OPENAPI_PATH} answered HTTP ${response.status}: is --url the public API?`);
  return (await response.json()) as OpenApiDocument;
}

/**
 * The connector for desktop clients: MCP over stdin/stdout, each tool call an
 * HTTP call of the public API with the token. Its calls carry the
 * self-declared `X-BPC-Client: agent-connector` label, so exports it starts
 * record `startedFrom: 'agent'`.
 */
export async function runStdioConnector(options: StdioConnectorOptions): Promise<() => Promise<void>> {
  const document = await fetchOpenApi(options.url);
  const api = httpApiClient(options.url, `Bearer ${options.token}`, { [AGENT_CLIENT_HEADER]: AGENT_CLIENT_LABEL });
  const server = createConnectorServer(api, document);
  await server.connect(new StdioServerTransport());
  return () => server.close();
}
