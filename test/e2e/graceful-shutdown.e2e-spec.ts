import { mkdtempSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, SpawnedService, spawnService, TEST_INTERNAL_KEY } from '@bpc/testing';

/** Resolves once something accepts a TCP connection on the port. */
async function untilListening(port: number, timeoutMs: number, service: SpawnedService): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const connected = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(true)).on('error', () => resolve(false));
      socket.unref();
      setTimeout(() => socket.destroy(), 100).unref();
    });
    if (connected) return;
    if (service.child.exitCode !== null) throw new Error(`service exited early:\n${service.output().slice(-3000)}`);
    if (Date.now() > deadline) throw new Error(`port ${port} did not listen within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('SIGTERM to the standalone process', () => {
  it('shuts down gracefully (exit 0) even when it comes while later apps are still starting', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bpc-shutdown-'));
    const listen = { host: '127.0.0.1', public_api: await freePort(), daemon: await freePort(), edge: await freePort(), projector: await freePort() };
    const file = path.join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ data_dir: path.join(dir, 'data'), internal_auth_key: TEST_INTERNAL_KEY, logging: { level: 'info' }, listen, hosts: [{ host_id: 1, hostnames: ['www.example.com'], dimensions: [{ id: 1, name: 'desktop' }] }] }));
    const service = spawnService('apps/standalone/src/main.ts', { BPC_CONFIG: file });

    // The projector listens first; the other apps start after it.
    await untilListening(listen.projector, 60_000, service);
    service.child.kill('SIGTERM');

    expect(await service.exited).toBe(0);
    expect(service.output()).toContain('"msg":"stopped"');
  }, 90_000);
});
