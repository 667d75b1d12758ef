import { mcpArgs, McpUsageError } from './mcp-args';

describe('npm run mcp arguments', () => {
  it('takes --url and --token, flags before the environment', () => {
    expect(mcpArgs(['--url', 'http://127.0.0.1:3000', '--token', 't1'], { BPC_TOKEN: 't2' })).toEqual({ url: 'http://127.0.0.1:3000', token: 't1' });
    expect(mcpArgs([], { BPC_API_URL: 'https://api.example.com', BPC_TOKEN: 't2' })).toEqual({ url: 'https://api.example.com', token: 't2' });
  });

  it('refuses a missing token, a URL that is not http(s), an unknown flag', () => {
    expect(() => mcpArgs(['--url', 'http://x'], {})).toThrow(McpUsageError);
    expect(() => mcpArgs(['--url', 'ftp://x', '--token', 't'], {})).toThrow(/--url/);
    expect(() => mcpArgs(['--url', 'http://x', '--token', 't', '--verbose'], {})).toThrow(McpUsageError);
  });
});
