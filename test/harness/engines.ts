import { ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { auditKafkaBroker } from './event-audit';
import { until } from './until';

/** A real engine process started for tests on a free loopback port. */
export interface RunningEngine {
  readonly url: string;
  readonly port: number;
  readonly pid: number;
  stop(): Promise<void>;
}

/** Ports `freePort` has handed out in this process. */
const handedOut = new Set<number>();

/**
 * A loopback port free now and never handed out before in this process: a
 * port freed by one call can come back from the next, so ports asked for one
 * after another (a test's apps, a cluster's replicas) would not all differ
 * (seen: a demo site's origin on an app's port).
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await unusedPort();
    if (!handedOut.has(port)) {
      handedOut.add(port);
      return port;
    }
  }
}

function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill(signal);
  });
}

const waitFor = (check: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> => until(check, { timeoutMs, what: `${what} ready` });

function redisAnswersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const { Socket } = require('node:net') as typeof import('node:net');
    const socket = new Socket();
    socket.setTimeout(500);
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
  });
}

export interface RedisOptions {
  /** Reuse a port (restart after a stop). */
  readonly port?: number;
  /**
   * Keep data across a stop and start in this directory (append-only file,
   * fsync always), as a production Redis would; default: persistence off.
   */
  readonly durableDir?: string;
}

/** Starts `redis-server` on the given or a free port. */
export async function startRedis(options: RedisOptions | number = {}): Promise<RunningEngine> {
  const { port, durableDir } = typeof options === 'number' ? { port: options, durableDir: undefined } : options;
  const p = port ?? (await freePort());
  const dir = durableDir ?? mkdtempSync(path.join(tmpdir(), 'bpc-redis-'));
  const persistence = durableDir ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no'];
  const child = spawn('redis-server', ['--port', String(p), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir], {
    stdio: 'ignore',
  });
  const exited = new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}`))));
  exited.catch(() => undefined);
  await Promise.race([waitFor(() => redisAnswersPing(p), 10_000, 'redis-server'), exited]);
  return {
    url: `redis://127.0.0.1:${p}`,
    port: p,
    pid: child.pid ?? -1,
    stop: async () => {
      await stopProcess(child);
      if (!durableDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Starts librdkafka's mock cluster through `kcat` (a real Kafka-protocol
 * broker). Its debug log names the bootstrap servers; the log is drained for
 * the life of the process so the pipe never fills up and stalls the broker.
 */
export async function startKafkaMock(brokers = 3): Promise<RunningEngine> {
  const child = spawn('kcat', ['-X', `test.mock.num.brokers=${brokers}`, '-b', 'localhost:1', '-C', '-t', 'keepalive', '-d', 'mock', '-q'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const bootstrap = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error('kcat mock cluster printed no bootstrap.servers within 10 s')), 10_000);
    child.once('error', (e) => reject(new Error(`cannot start kcat: ${e.message}`)));
    child.once('exit', (code) => reject(new Error(`kcat exited with ${code}: ${seen.slice(-500)}`)));
    child.stderr!.on('data', (chunk: Buffer) => {
      if (seen === null) return;
      seen += chunk.toString();
      const match = /bootstrap\.servers=([0-9.:,]+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        seen = '';
        resolve(match[1]);
      } else if (seen.length > 1_000_000) {
        seen = seen.slice(-10_000);
      }
    });
  });
  child.stderr!.removeAllListeners('data');
  child.stderr!.resume();
  child.removeAllListeners('exit');
  return {
    url: bootstrap,
    port: Number(bootstrap.split(',')[0].split(':')[1]),
    pid: child.pid ?? -1,
    stop: async () => {
      // Its topics are in memory only: the events the suite produced there are checked before they go.
      if (child.exitCode === null && child.signalCode === null) await auditKafkaBroker(bootstrap);
      await stopProcess(child);
    },
  };
}
