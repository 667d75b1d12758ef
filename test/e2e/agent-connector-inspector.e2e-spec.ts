import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createLogger } from '@bpc/platform';
import { RunningApps, startApps } from '@bpc/composition';
import { removeTestDataDir, testConfig } from '@bpc/testing';
import { standaloneApps } from '../../apps/standalone/src/standalone';
import { botRequest, issueToken, recordAndWait } from './explorer-fixtures';

const ROOT = path.resolve(__dirname, '../..');
const INSPECTOR = path.join(path.dirname(require.resolve('@modelcontextprotocol/inspector/package.json')), 'clients/launcher/build/index.js');
const run = promisify(execFile);

/** A third-party client, the MCP Inspector's command-line mode, against the connector over both transports. */
describe('agent connector driven by the MCP Inspector CLI', () => {
  let running: RunningApps;
  let api: string;
  let token: string;
  // The Inspector keeps a catalog of servers in the home directory unless told otherwise.
  const env = { ...process.env, MCP_CATALOG_PATH: path.join(mkdtempSync(path.join(tmpdir(), 'inspector-')), 'mcp.json') };

  beforeAll(async () => {
    const config = testConfig('standalone', { scheduler: { enabled: false }, websites: [{ id: 'demo', host_id: 1, account_id: 'acme' }] });
    running = await startApps(standaloneApps, config, createLogger('warn', 'e2e-inspector'));
    api = running.urls['public-api']!;
    ({ token } = await issueToken(api, { user: 'ivy', website: 'demo', role: 'readonly' }));
    const now = Date.now();
    await recordAndWait(running, [1, 2, 3, 4].map((i) => botRequest('demo', new Date(now - i * 60_000), { url: `https://www.example.com/i${i}` })), 'demo', 4);
  }, 120_000);

  afterAll(async () => {
    await running?.close();
    if (running) removeTestDataDir(running.runtime.config.data_dir);
  });

  const targets: Record<string, () => string[]> = {
    // Variadic options (--tool-arg, --header) go last but one: the target follows the method's options.
    'Streamable HTTP': () => ['--transport', 'http', '--server-url', `${api}/mcp`, '--header', `Authorization: Bearer ${token}`],
    stdio: () => ['-e', `BPC_TOKEN=${token}`, '--cwd', ROOT, '--', process.execPath, '-r', './scripts/swc-register.cjs', 'apps/mcp/src/main.ts', '--url', api],
  };
  const inspector = async (target: string[], method: string[]) => {
    const { stdout } = await run(process.execPath, [INSPECTOR, '--cli', ...method, ...target], { cwd: ROOT, env, timeout: 60_000 });
    return JSON.parse(stdout);
  };

  it.each(Object.keys(targets))('lists the tools and calls query_explorer over %s', async (kind) => {
    const listed = await inspector(targets[kind](), ['--method', 'tools/list']);
    expect(listed.tools.map((t: { name: string }) => t.name)).toContain('query_explorer');

    const called = await inspector(targets[kind](), [
      '--method',
      'tools/call',
      '--tool-name',
      'query_explorer',
      '--tool-arg',
      'website=demo',
      'explorer=events',
      'mode=unique_pages',
      'period=24h',
      'perPage=3',
    ]);
    expect(called.isError).toBeFalsy();
    expect(called.structuredContent).toMatchObject({ nextPage: 2, meta: { total: 4, perPage: 3, page: 1 } });
    expect(called.content[0].text).toContain('page=2');
  }, 120_000);
});
