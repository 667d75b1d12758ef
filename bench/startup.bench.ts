import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { BenchRow, BenchSuite } from './bench-row';
import { freePort } from '../test/harness/engines';

const TARGET_MS = 15_000;
const root = path.resolve(__dirname, '..', '..');

async function answers(url: string, headers: Record<string, string> = {}): Promise<boolean> {
  try {
    return (await fetch(url, { headers })).status === 200;
  } catch {
    return false;
  }
}

/**
 * `npm start` on a fresh data directory: build (swc) and start every app in
 * one process, until the daemon's /status and every app's /health/ready answer 200.
 */
async function measureStartup(): Promise<number> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'bpc-bench-start-'));
  const ports = { public_api: await freePort(), daemon: await freePort(), edge: await freePort(), projector: await freePort() };
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    BPC__DATA_DIR: dataDir,
    BPC__LOGGING__LEVEL: 'warn',
    ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [`BPC__LISTEN__${k.toUpperCase()}`, String(v)])),
  };
  const started = performance.now();
  const child = spawn('npm', ['start', '--silent'], { cwd: root, env, stdio: 'ignore', detached: true });
  try {
    const base = (port: number) => `http://127.0.0.1:${port}`;
    const deadline = started + 60_000;
    for (;;) {
      const checks = await Promise.all([
        answers(`${base(ports.daemon)}/status`, { 'x-internal-auth': 'demo-internal-key' }),
        ...Object.values(ports).map((p) => answers(`${base(p)}/health/ready`)),
      ]);
      if (checks.every(Boolean)) return performance.now() - started;
      if (performance.now() > deadline) throw new Error('standalone did not become ready within 60 s');
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
    await new Promise((r) => child.once('exit', r));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export const startupBench: BenchSuite = {
  name: 'startup',
  async run(): Promise<BenchRow[]> {
    const ms = await measureStartup();
    return [
      {
        name: 'npm start (fresh data dir) until /status and every /health/ready answer',
        value: ms,
        unit: 'ms',
        target: `<= ${TARGET_MS} ms`,
        pass: ms <= TARGET_MS,
      },
    ];
  },
};
