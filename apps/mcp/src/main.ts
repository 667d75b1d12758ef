import { runStdioConnector } from '@bpc/agent-connector';
import { processEnvironment } from '@bpc/config';
import { mcpArgs, McpUsageError } from './mcp-args';

// The agent connector over stdio: stdout carries the MCP protocol only, diagnostics go to stderr.
async function main(): Promise<void> {
  const close = await runStdioConnector(mcpArgs(process.argv.slice(2), processEnvironment()));
  const stop = () => void close().finally(() => process.exit(0));
  process.stdin.on('end', stop);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(error instanceof McpUsageError ? 2 : 1);
});
