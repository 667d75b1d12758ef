import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { freePort, removeTestDataDir, until, watchDataDir } from '@bpc/testing';
import { buildDashboard, launchChromium } from './dashboard-fixtures';

const root = path.resolve(__dirname, '..', '..');

/** The README's quick start: its `sh` blocks, the first starting the service, the others what a newcomer then types. */
function quickStart(): { start: string; steps: string } {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = /^## Quick start\n([\s\S]*?)^## /m.exec(readme)?.[1];
  const blocks = [...(section ?? '').matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) => block);
  if (blocks.length < 2) throw new Error('README.md has no quick start with a start block and further steps');
  return { start: blocks[0], steps: blocks.slice(1).join('\n') };
}

/** The demo configuration's ports, as the README names them, and the free ones this test moves them to. */
interface Ports {
  readonly public_api: number;
  readonly daemon: number;
  readonly edge: number;
  readonly projector: number;
  readonly demo_site: number;
}
const README_PORTS: Ports = { public_api: 3000, daemon: 3001, edge: 3002, projector: 3003, demo_site: 3004 };

/** The README's commands with its addresses on this test's ports; nothing else changes. */
function onPorts(script: string, ports: Ports): string {
  const moved = (Object.keys(README_PORTS) as (keyof Ports)[]).reduce((text, app) => text.replaceAll(`127.0.0.1:${README_PORTS[app]}`, `127.0.0.1:${ports[app]}`), script);
  const left = /(?:127\.0\.0\.1|localhost):300\d/.exec(moved);
  if (left) throw new Error(`the quick start names ${left[0]}, which this test does not move to a free port`);
  return moved;
}

/** The environment a newcomer's shell has, with the ports moved by the documented overrides (docs/configuration.md). */
function shellEnv(ports: Ports): NodeJS.ProcessEnv {
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('BPC')));
  return {
    ...inherited,
    BPC__LISTEN__PUBLIC_API: String(ports.public_api),
    BPC__LISTEN__DAEMON: String(ports.daemon),
    BPC__LISTEN__EDGE: String(ports.edge),
    BPC__LISTEN__PROJECTOR: String(ports.projector),
    BPC__HOSTS__0__ORIGIN: `http://127.0.0.1:${ports.demo_site}`,
  };
}

/**
 * A checkout of its own for `npm start` to build into and keep `./data` in,
 * so the test touches neither the repository's dist nor its data: the
 * sources and node_modules linked, the scripts and root files copied (the
 * build finds the root from its own real path; the lock file keeps its time,
 * so setup sees node_modules up to date), and the dashboard as built (its
 * stamp matches the same sources, so it is not built again).
 */
function scratchCheckout(): string {
  // Else `npm start` would install packages, through the link, into the repository's node_modules.
  if (statSync(path.join(root, 'package-lock.json')).mtimeMs > statSync(path.join(root, 'node_modules', '.package-lock.json')).mtimeMs) {
    throw new Error('node_modules is older than package-lock.json: run `npm install` (`npm test` sets itself up first)');
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-readme-'));
  for (const linked of ['apps', 'libs', 'test', 'bench', 'deploy', 'node_modules']) symlinkSync(path.join(root, linked), path.join(dir, linked));
  for (const copied of ['scripts', 'package.json', 'package-lock.json', 'tsconfig.json']) {
    cpSync(path.join(root, copied), path.join(dir, copied), { recursive: true, preserveTimestamps: true });
  }
  mkdirSync(path.join(dir, 'dist'));
  cpSync(path.join(root, 'dist', 'dashboard'), path.join(dir, 'dist', 'dashboard'), { recursive: true });
  cpSync(path.join(root, 'dist', '.dashboard-build-stamp'), path.join(dir, 'dist', '.dashboard-build-stamp'));
  return dir;
}

interface Shell {
  readonly child: ChildProcess;
  /** The exit code, or the signal's name. */
  readonly exited: Promise<number | string>;
  output(): string;
}

/** Runs `script` in bash as a newcomer's terminal would, in its own process group (Ctrl-C reaches npm and the service). */
function runShell(script: string, cwd: string, env: NodeJS.ProcessEnv): Shell {
  const child = spawn('bash', ['-c', script], { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk: Buffer) => (output += chunk.toString());
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  return { child, exited, output: () => output };
}

/**
 * The README's quick start, run as written (issue 42): `npm start` on the
 * demo configuration, then the next blocks as one shell script, with the
 * demo's ports moved to free ones. Offline by construction: the demo host's
 * pages come from the demo site the service serves itself.
 */
describe("the README's quick start", () => {
  let dir: string;
  let ports: Ports;
  let service: Shell;
  let steps: Shell;
  let browser: Browser | undefined;

  beforeAll(async () => {
    buildDashboard();
    dir = scratchCheckout();
    watchDataDir(path.join(dir, 'data'));
    ports = { public_api: await freePort(), daemon: await freePort(), edge: await freePort(), projector: await freePort(), demo_site: await freePort() };
    const { start, steps: typed } = quickStart();
    service = runShell(onPorts(start, ports), dir, shellEnv(ports));
    await until(() => service.output().includes('"msg":"ready"') || service.child.exitCode !== null, { timeoutMs: 240_000, intervalMs: 100, what: () => `npm start ready; its output so far:\n${service.output().slice(-3000)}` });
    if (!service.output().includes('"msg":"ready"')) throw new Error(`npm start exited:\n${service.output().slice(-3000)}`);
    steps = runShell(`set -euo pipefail\n${onPorts(typed, ports)}`, dir, shellEnv(ports));
    await steps.exited;
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    if (service && service.child.exitCode === null && service.child.signalCode === null) {
      process.kill(-service.child.pid!, 'SIGINT');
      await service.exited;
    }
    if (dir) removeTestDataDir(dir);
  }, 120_000);

  it('runs every step without an error', () => {
    expect({ code: steps.child.exitCode, output: steps.output() }).toEqual({ code: 0, output: expect.any(String) });
  });

  it("shows a bot's first request rendered (miss), then the same page from the cache with the content its scripts built (hit)", () => {
    const lines = steps.output().split('\n');
    const cache = lines.filter((line) => /^x-prerender-cache:/i.test(line)).map((line) => line.trim().toLowerCase());
    expect(cache).toEqual(['x-prerender-cache: miss', 'x-prerender-cache: hit']);
    expect(lines).toContain('<h1>Outdoor gear that lasts</h1>');
  });

  it('answers the Data Explorer with those two bot requests', () => {
    const answer = steps.output().split('\n').find((line) => line.startsWith('{"data"'));
    const { data, meta } = JSON.parse(answer ?? '{}') as { data?: { page: string; bot_name: string }[]; meta?: { total: number } };
    expect(meta?.total).toBe(2);
    expect(data?.map((row) => [row.page, row.bot_name])).toEqual([
      ['https://www.example.com/', 'Googlebot'],
      ['https://www.example.com/', 'Googlebot'],
    ]);
  });

  it("recaches the home page and follows its receipt until every dimension's render is stored", () => {
    const answer = steps.output().split('\n').find((line) => line.startsWith('{"receiptId"'));
    const receipt = JSON.parse(answer ?? '{}') as { done?: boolean; totals?: { entries: number; stored: number }; data?: { url: string; state: string }[] };
    expect(receipt.done).toBe(true);
    expect(receipt.totals?.entries).toBeGreaterThan(0);
    expect(receipt.totals?.stored).toBe(receipt.totals?.entries);
    expect(new Set(receipt.data?.map((entry) => entry.url))).toEqual(new Set(['https://www.example.com/']));
  });

  it('prints a sign-in link that opens the dashboard in Chromium, its overview counting those requests', async () => {
    const link = new RegExp(`(http://127\\.0\\.0\\.1:${ports.public_api}/sign-in#link=\\S+)`).exec(steps.output())?.[1];
    expect(link).toBeDefined();
    browser = await launchChromium();
    const page = await browser.newPage();
    await page.goto(link!);
    await page.waitForURL(/\/w\/demo$/);
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    await page.locator('.card', { hasText: 'Bot requests' }).locator('.kpi-value', { hasText: /^2$/ }).waitFor();
  }, 60_000);

  it('stops gracefully on Ctrl-C', async () => {
    process.kill(-service.child.pid!, 'SIGINT');
    // npm passes the signal on, then ends by it as a shell expects; the service itself logs its graceful stop.
    expect(await service.exited).toBe('SIGINT');
    expect(service.output()).toContain('"msg":"stopped"');
  }, 90_000);
});
