import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { PublicApiClient } from './api-client';
import { CONNECTOR_PROMPTS } from './connector-prompts';
import { listResources, readResource, ResourceRefusal, RESOURCE_TEMPLATES } from './connector-resources';
import { CONNECTOR_TOOLS } from './connector-tools';
import { OpenApiDocument, withoutExamples } from './openapi-schemas';

export const CONNECTOR_NAME = 'bot-prerender-cache';
export const CONNECTOR_VERSION = '1.0.0';

const INSTRUCTIONS =
  'Bot pre-rendering cache: what search and AI bots request on your websites (Data Explorer), search clicks, and the render cache. ' +
  'Start with list_websites, then describe_explorers for the columns and filters a query takes. Results are paged (50 rows by default; nextPage says how to go on). ' +
  'recache_urls, recache_sitemap and invalidate_urls change the cache and need the manager role: ask the user first.';

// A Server builds its own Ajv instance unless given one (a millisecond or two of CPU, and `/mcp` makes a
// server per request); it only compiles elicitation schemas, which the connector never sends, so one is shared.
const jsonSchemaValidator = new AjvJsonSchemaValidator();

const toolLists = new WeakMap<OpenApiDocument, ReturnType<typeof buildToolList>>();

/** The tool list a client sees: input schemas from the public API's own OpenAPI components (the DTOs it validates with); built once per document (`/mcp` makes a server per request). */
export function toolList(document: OpenApiDocument) {
  let tools = toolLists.get(document);
  if (!tools) toolLists.set(document, (tools = buildToolList(document)));
  return tools;
}

function buildToolList(document: OpenApiDocument) {
  return CONNECTOR_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.annotations.title,
    description: tool.description,
    inputSchema: tool.inputSchema(document),
    // Examples help a model write arguments; in output schemas they only cost context.
    ...(tool.outputSchema ? { outputSchema: withoutExamples(tool.outputSchema(document)) } : {}),
    annotations: tool.annotations,
  }));
}

/**
 * One MCP server over one caller's view of the public API: tools, resources
 * and prompts. `api` carries the caller's credentials; the server holds no
 * state of its own, so a stateless HTTP request or a stdio session can each
 * have one.
 */
export function createConnectorServer(api: PublicApiClient, document: OpenApiDocument): Server {
  const server = new Server(
    { name: CONNECTOR_NAME, title: 'Bot pre-rendering cache', version: CONNECTOR_VERSION },
    { capabilities: { tools: {}, resources: {}, prompts: {} }, instructions: INSTRUCTIONS, jsonSchemaValidator },
  );
  const tools = toolList(document);
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = CONNECTOR_TOOLS.find((t) => t.name === request.params.name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool ${request.params.name}; tools: ${CONNECTOR_TOOLS.map((t) => t.name).join(', ')}`);
    return tool.run(api, request.params.arguments ?? {});
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await resourceCall(() => listResources(api)) }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => resourceCall(() => readResource(api, request.params.uri)));
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: CONNECTOR_PROMPTS.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args.map((a) => ({ ...a })) })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    const prompt = CONNECTOR_PROMPTS.find((p) => p.name === request.params.name);
    if (!prompt) throw new McpError(ErrorCode.InvalidParams, `unknown prompt ${request.params.name}`);
    const args = request.params.arguments ?? {};
    const missing = prompt.arguments.find((a) => a.required && !args[a.name]);
    if (missing) throw new McpError(ErrorCode.InvalidParams, `prompt ${prompt.name} needs argument ${missing.name}`);
    return { description: prompt.description, messages: [{ role: 'user', content: { type: 'text', text: prompt.text(args) } }] };
  });
  return server;
}

/** A resource the API refuses (or an unknown URI) is an invalid-params error, the API's code and message in it. */
async function resourceCall<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ResourceRefusal) throw new McpError(ErrorCode.InvalidParams, error.message);
    throw error;
  }
}
