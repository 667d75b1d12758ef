import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { AppError, Clock } from '@bpc/domain';
import { authenticate, IdentityIndex } from '@bpc/identity';
import { inProcessAgentMark, publicErrorResponse } from '@bpc/public-api';
import { OPENAPI_PATH } from '@bpc/platform';
import { injectApiClient } from './api-client';
import { createConnectorServer } from './connector-server';
import type { OpenApiDocument } from './openapi-schemas';

/** Where the connector listens on the public-api app. */
export const MCP_PATH = '/mcp';
/** RFC 9728 protected resource metadata (MCP authorization): the root form, and the form with the resource's path appended. */
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource';
/** Paths of the connector's routes, which the dashboard's page fallback leaves alone. */
export const MCP_RESERVED_PREFIXES: readonly string[] = [MCP_PATH, '/.well-known'];

export interface McpEndpointOptions {
  readonly identity: IdentityIndex;
  readonly clock: Clock;
  /** The API's base URL as clients reach it: from configuration (exports.public_base_url) or the listen address, never from a request. */
  readonly baseUrl: () => string;
}

/** The protected resource metadata document: the resource is `/mcp`, tokens go in the Authorization header. */
export function resourceMetadata(baseUrl: string) {
  return {
    resource: `${baseUrl}${MCP_PATH}`,
    resource_name: 'Bot pre-rendering cache agent connector',
    bearer_methods_supported: ['header'],
    resource_documentation: `${baseUrl}/docs`,
  };
}

/** `WWW-Authenticate` of a refused `/mcp` request (RFC 6750 with RFC 9728's resource_metadata). */
export function wwwAuthenticate(baseUrl: string, tokenSent: boolean): string {
  return `Bearer resource_metadata="${baseUrl}${RESOURCE_METADATA_PATH}"${tokenSent ? ', error="invalid_token"' : ''}`;
}

/**
 * Streamable HTTP MCP at `/mcp`, stateless (a server and a transport per
 * POST, JSON answers): the bearer token is checked at the transport (401 with
 * `WWW-Authenticate` and the metadata link), then each tool call is the
 * public API's own route run in process through `inject` with the caller's
 * Authorization header and the in-process agent mark, so the API's hooks
 * (authentication, rate limit), guards, validation and error envelope all
 * apply unchanged.
 */
export function installMcpEndpoint(fastify: FastifyInstance, options: McpEndpointOptions): void {
  let document: Promise<OpenApiDocument> | undefined;
  // The API's own OpenAPI document, read once through the same in-process path.
  const openApi = (): Promise<OpenApiDocument> =>
    (document ??= fastify.inject({ method: 'GET', url: OPENAPI_PATH }).then((answer) => {
      if (answer.statusCode !== 200) throw new Error(`${OPENAPI_PATH} answered ${answer.statusCode}`);
      return answer.json() as OpenApiDocument;
    })).catch((error: unknown) => {
      document = undefined;
      throw error;
    });

  const metadata = async (_request: FastifyRequest, reply: FastifyReply) => reply.header('cache-control', 'no-store').send(resourceMetadata(options.baseUrl()));
  fastify.get(RESOURCE_METADATA_PATH, metadata);
  fastify.get(`${RESOURCE_METADATA_PATH}${MCP_PATH}`, metadata);

  fastify.post(MCP_PATH, async (request, reply) => {
    const authorization = request.headers.authorization;
    try {
      await options.identity.ready();
      authenticate(options.identity.view(), authorization, options.clock.now());
    } catch (error) {
      // Unauthenticated: 401 with the metadata link; the identity index out of reach stays the API's 503.
      const { status, body } = publicErrorResponse(error instanceof AppError ? error : new AppError('UNAUTHENTICATED', 'authentication failed'));
      if (status === 401) void reply.header('www-authenticate', wwwAuthenticate(options.baseUrl(), authorization !== undefined));
      return reply.code(status).send(body);
    }
    const server = createConnectorServer(injectApiClient(fastify, authorization!, inProcessAgentMark()), await openApi());
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });
}
