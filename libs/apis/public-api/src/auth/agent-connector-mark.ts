import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

/**
 * How a request says it comes from the agent connector (the MCP server), so
 * an export it starts records `startedFrom: 'agent'`. Two ways:
 * - in process (`/mcp` on this app calling the API through fastify's
 *   `inject`): a header holding a random secret drawn when this process
 *   starts, which only that code knows; a caller over the network cannot
 *   produce it;
 * - the stdio connector, a separate process calling over HTTP: the
 *   self-declared `X-BPC-Client: agent-connector`. It is a label, not a
 *   credential: it grants nothing (the bearer token decides who and what),
 *   it only names the channel in the export's provenance.
 */
export const AGENT_CLIENT_HEADER = 'x-bpc-client';
export const AGENT_CLIENT_LABEL = 'agent-connector';
export const IN_PROCESS_AGENT_HEADER = 'x-bpc-agent-connector-secret';

const inProcessSecret = randomBytes(32).toString('base64url');

/** The header the in-process connector sets on every call it injects. */
export function inProcessAgentMark(): Record<string, string> {
  return { [IN_PROCESS_AGENT_HEADER]: inProcessSecret };
}

function matchesSecret(presented: string): boolean {
  const a = Buffer.from(presented);
  const b = Buffer.from(inProcessSecret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export function isAgentConnectorRequest(headers: IncomingHttpHeaders): boolean {
  const secret = headers[IN_PROCESS_AGENT_HEADER];
  if (typeof secret === 'string' && matchesSecret(secret)) return true;
  return headers[AGENT_CLIENT_HEADER] === AGENT_CLIENT_LABEL;
}
