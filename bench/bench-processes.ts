import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnNode, waitUntilAnswers, type SpawnedService } from '../test/harness/spawned-service';

/** The V8 flags `npm start` runs the apps with. */
export const APP_NODE_FLAGS = ['--max-semi-space-size=32', '--initial-old-space-size=256'];

/** `count` free loopback ports, all different (each held until every one is taken). */
export async function distinctFreePorts(count: number): Promise<number[]> {
  const servers = Array.from({ length: count }, () => createServer());
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  const ports = servers.map((server) => (server.address() as AddressInfo).port);
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  return ports;
}

/** A built app (`dist/apps/<app>/src/main.js`, as `npm start` runs it) on `configFile`, ready once `readyUrl` answers 200. */
export async function spawnBuiltApp(app: string, configFile: string, readyUrl: string, env: NodeJS.ProcessEnv = {}): Promise<SpawnedService> {
  const main = path.join(__dirname, '..', 'apps', app, 'src', 'main.js');
  const service = spawnNode([...APP_NODE_FLAGS, main], { BPC_CONFIG: configFile, ...env });
  await waitUntilAnswers(readyUrl, {}, 90_000, service);
  return service;
}

export async function stopService(service: SpawnedService): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  service.child.kill('SIGTERM');
  await service.exited;
}

/**
 * CPU time a process has used so far (every thread), and its children that
 * exited and were waited for (Chromium's renderers), in ms (Linux
 * `/proc/<pid>/stat`, clock ticks of 10 ms); 0 once it is gone.
 */
export function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return 0;
  }
}

/** Direct children of `pid` whose command line contains `needle`. */
export function childPidsRunning(pid: number, needle: string): number[] {
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    return children.filter((child) => {
      try {
        return readFileSync(`/proc/${child}/cmdline`, 'utf8').includes(needle);
      } catch {
        return false;
      }
    });
  } catch {
    return [];
  }
}

/** CPU time of `pid` and every process below it (Chromium under a daemon, s3rver's children), in ms. */
export function treeCpuMs(pid: number): number {
  const children = (() => {
    try {
      return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  })();
  return processCpuMs(pid) + children.reduce((sum, child) => sum + treeCpuMs(child), 0);
}

/** The machine's busy CPU time so far, every core, in ms (`/proc/stat`: all but idle and iowait). */
export function machineBusyMs(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const busy = fields.reduce((sum, n, i) => (i === 3 || i === 4 ? sum : sum + n), 0);
  return busy * 10;
}

/** The one-minute load average, rounded, for a row's name. */
export function loadAverage(): string {
  return os.loadavg()[0].toFixed(1);
}
