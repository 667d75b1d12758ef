import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '@bpc/domain';
import { gate, rawRequest, SpawnedService, spawnService, standaloneDir, StandalonePorts, TEST_INTERNAL_KEY, TestOrigin, until, untilListening, waitUntilAnswers, writeStandaloneConfig } from '@bpc/testing';

/**
 * Graceful shutdown of the standalone process (docs/operations.md): every
 * app stops taking work at once, in-flight work drains in parallel, the exit
 * code says whether it ended as planned, and the logs say what happened.
 */

const TOKEN = 'shutdown-prerender-token';
const internal = { 'x-internal-auth': TEST_INTERNAL_KEY, 'content-type': 'application/json' };

interface Service {
  readonly service: SpawnedService;
  readonly url: (app: 'public_api' | 'daemon' | 'edge' | 'projector') => string;
  readonly listen: StandalonePorts;
}

async function startStandalone(extra: Record<string, unknown> = {}, env: NodeJS.ProcessEnv = {}): Promise<Service> {
  const { file, listen } = await writeStandaloneConfig(standaloneDir('bpc-shutdown-drain'), { logging: { level: 'info' }, scheduler: { enabled: false }, ...extra });
  const service = spawnService('apps/standalone/src/main.ts', { BPC_CONFIG: file, ...env });
  return { service, listen, url: (app) => `http://127.0.0.1:${listen[app]}` };
}

/** The HTTP status, or `refused` when the connection is refused or closed without an answer. */
async function statusOf(url: string, init?: RequestInit): Promise<number | 'refused'> {
  try {
    return (await fetch(url, init)).status;
  } catch {
    return 'refused';
  }
}

/** JSON log lines of the service's output. */
function logLines(service: SpawnedService): Record<string, unknown>[] {
  return service
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('SIGTERM while the edge waits for a slow origin (standalone)', () => {
  let origin: TestOrigin;

  afterAll(async () => origin?.stop());

  it('stops every app taking work at once, lets the miss finish with its page, and exits 0 well within the grace period', async () => {
    // /slow is held at the origin until the checks made while the edge drains it are done.
    const slow = gate();
    origin = new TestOrigin((p) => ({ status: 200, body: `<html><head><title>${p}</title></head><body>page</body></html>`, heldUntil: p === '/slow' ? slow.opened : undefined }));
    const originUrl = await origin.start();
    const { service, url } = await startStandalone({
      hosts: [{ host_id: 1, hostnames: ['www.example.com'], origin: originUrl, dimensions: [{ id: 1, name: 'desktop', action: 'bypass' }] }],
      websites: [{ id: 'demo', host_id: 1, account_id: 'acme', prerender_token_sha256: sha256Hex(TOKEN) }],
    });
    await waitUntilAnswers(`${url('edge')}/health/ready`, {}, 60_000, service);
    await waitUntilAnswers(`${url('daemon')}/status`, internal, 60_000, service);

    const recacheLate = () => statusOf(`${url('daemon')}/internal/cache/recache`, { method: 'POST', headers: internal, body: JSON.stringify({ host_id: 1, urls: ['https://www.example.com/late'], priority: 'normal' }) });
    expect(await recacheLate()).toBe(200);

    const miss = rawRequest(url('edge'), '/https://www.example.com/slow', { headers: { 'x-prerender-token': TOKEN, 'user-agent': 'Googlebot/2.1' } });
    await until(() => (origin.hits.get('/slow') ?? 0) > 0, { intervalMs: 10, what: 'the miss at the origin' });
    service.child.kill('SIGTERM');

    // The daemon refuses new work at once, although the edge still drains its miss.
    await until(recacheLate, (status) => status !== 200, { intervalMs: 20, what: 'the daemon refusing new work while the edge drains' });
    // Every app reports not ready: the public API stopped accepting, the projector (still running for the others) answers 503.
    expect(await statusOf(`${url('public_api')}/health/ready`)).not.toBe(200);
    const projector = await fetch(`${url('projector')}/health/ready`);
    expect({ status: projector.status, body: await projector.json() }).toEqual({ status: 503, body: expect.objectContaining({ error: { shutdown: { status: 'down', reason: 'the process is shutting down' } } }) });
    // All of that while the miss was still being drained: the origin holds it until now.
    slow.open();

    // The bot waiting for the miss still gets its page.
    const answer = await miss;
    expect([answer.status, answer.headers['x-prerender-cache']]).toEqual([200, 'bypass']);

    // 0: within shutdown_grace_ms (past it the process exits 1).
    expect(await service.exited).toBe(0);
    const lines = logLines(service);
    expect(lines.some((l) => l.msg === 'stopped')).toBe(true);
    expect(lines.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
  }, 120_000);
});

describe('SIGTERM while later apps are still starting (standalone)', () => {
  it('shuts down gracefully (exit 0), starts no further app and never logs "ready"', async () => {
    const { service, listen } = await startStandalone();
    // The projector listens first; the other apps start after it (each takes far longer than the signal).
    await untilListening(listen.projector, service);
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    const messages = logLines(service).map((l) => l.msg);
    expect(messages).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
    expect(messages).not.toContain('ready');
  }, 90_000);
});

describe.each(['unhandledRejection', 'uncaughtException'] as const)('an %s in the running process (standalone)', (origin) => {
  it('is logged as one fatal line and shuts down gracefully with exit code 1', async () => {
    // Preloaded into the service: SIGUSR2 provokes the fault on the service's own event loop.
    const dir = standaloneDir('bpc-fault');
    const preload = path.join(dir, 'fault.js');
    writeFileSync(
      preload,
      origin === 'unhandledRejection'
        ? "process.on('SIGUSR2', () => { Promise.reject(new Error('provoked by the test')); });\n"
        : "process.on('SIGUSR2', () => { setImmediate(() => { throw new Error('provoked by the test'); }); });\n",
    );
    const { service, url } = await startStandalone({}, { NODE_OPTIONS: `--require ${preload}` });
    await waitUntilAnswers(`${url('daemon')}/status`, internal, 60_000, service);
    service.child.kill('SIGUSR2');

    expect(await service.exited).toBe(1);
    const lines = logLines(service);
    const fatal = lines.filter((l) => l.level === 'fatal');
    expect(fatal).toEqual([expect.objectContaining({ origin, err: expect.objectContaining({ message: 'provoked by the test', stack: expect.any(String) }) })]);
    // Graceful: the apps and the adapters were closed, not abandoned.
    expect(lines.some((l) => l.msg === 'stopped')).toBe(true);
  }, 90_000);
});
