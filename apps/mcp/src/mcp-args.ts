import { parseArgs } from 'node:util';

export const MCP_USAGE = 'usage: npm run --silent mcp -- --url <public API base URL> [--token <API token>]  (or the token in BPC_TOKEN, the URL in BPC_API_URL)';

export class McpUsageError extends Error {}

/** `--url` and `--token` (flags win over BPC_API_URL and BPC_TOKEN). */
export function mcpArgs(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): { url: string; token: string } {
  let values: { url?: string; token?: string };
  try {
    ({ values } = parseArgs({ args: [...argv], options: { url: { type: 'string' }, token: { type: 'string' } }, strict: true }));
  } catch (error) {
    throw new McpUsageError(`${(error as Error).message}\n${MCP_USAGE}`);
  }
  const url = values.url ?? env.BPC_API_URL;
  const token = values.token ?? env.BPC_TOKEN;
  if (!url || !/^https?:\/\/\S+$/.test(url)) throw new McpUsageError(`--url must be the public API's http(s) base URL\n${MCP_USAGE}`);
  if (!token) throw new McpUsageError(`no token: pass --token or set BPC_TOKEN\n${MCP_USAGE}`);
  return { url, token };
}
