import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './engines';
import { watchDataDir } from './event-audit';
import type { SpawnedService } from './spawned-service';
import { until } from './until';
import { TEST_INTERNAL_KEY } from './test-config';

/** The ports of a standalone process's four apps. */
export type StandalonePorts = Record<'public_api' | 'daemon' | 'edge' | 'projector', number>;

/**
 * Writes the configuration of a spawned standalone process to
 * `<dir>/config.json`: every app on a free port, data in `<dir>/data`, one
 * host, logs at `warn`; `extra`'s top-level keys replace these.
 */
export async function writeStandaloneConfig(dir: string, extra: Record<string, unknown> = {}): Promise<{ file: string; listen: StandalonePorts }> {
  const listen: StandalonePorts = { public_api: await freePort(), daemon: await freePort(), edge: await freePort(), projector: await freePort() };
  const file = path.join(dir, 'config.json');
  const config = {
    data_dir: path.join(dir, 'data'),
    internal_auth_key: TEST_INTERNAL_KEY,
    logging: { level: 'warn' },
    listen: { host: '127.0.0.1', ...listen },
    hosts: [{ host_id: 1, hostnames: ['www.example.com'], dimensions: [{ id: 1, name: 'desktop' }] }],
    ...extra,
  };
  writeFileSync(file, JSON.stringify(config));
  watchDataDir(config.data_dir);
  return { file, listen };
}

/** A fresh directory for a spawned process's configuration and data. */
export function standaloneDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `${prefix}-`));
}

/** Resolves once something accepts a TCP connection on the port (an app listens: startup may still go on). */
export async function untilListening(port: number, service: SpawnedService, timeoutMs = 60_000): Promise<void> {
  const listening = async (): Promise<boolean> => {
    const connected = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(true)).on('error', () => resolve(false));
      socket.unref();
      setTimeout(() => socket.destroy(), 100).unref();
    });
    if (!connected && service.child.exitCode !== null) throw new Error(`service exited early:\n${service.output().slice(-3000)}`);
    return connected;
  };
  await until(listening, { timeoutMs, intervalMs: 5, what: `port ${port} listening` });
}
