import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './engines';
import { spawnProcess, SpawnedService } from './spawned-service';
import { until } from './until';

/** A real nginx started for a test: one base URL per server block, in the order given. */
export interface RunningNginx {
  readonly urls: readonly string[];
  stop(): Promise<void>;
}

/** Where Debian puts the binary: outside a non-root user's PATH. */
const nginxBinary = (): string => {
  const found = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((candidate) => existsSync(candidate));
  if (!found) throw new Error('nginx is missing: install it with scripts/install-system-deps.sh (Debian package nginx-light)');
  return found;
};

/** Debian's nginx says so in its error log when another process took the port between `freePort` and its bind. */
const PORT_TAKEN = /Address already in use/;

/**
 * Starts nginx (Debian package `nginx-light`, see scripts/install-system-deps.sh)
 * in the foreground with a configuration of its own in a fresh directory: one
 * `server` block per entry of `servers` (its directives, without `listen`), each
 * on a free loopback port; every path nginx writes (pid, logs, temp files) is
 * in that directory. Resolves once every server answers HTTP.
 */
export async function startNginx(servers: readonly string[], attempts = 3): Promise<RunningNginx> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bpc-nginx-'));
  const ports = await Promise.all(servers.map(() => freePort()));
  const config = path.join(dir, 'nginx.conf');
  writeFileSync(config, nginxConfig(dir, servers, ports));
  const errorLog = path.join(dir, 'error.log');
  const nginx = spawnProcess(nginxBinary(), ['-p', dir, '-c', config, '-e', errorLog]);
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  const log = () => `${nginx.output()}${existsSync(errorLog) ? readFileSync(errorLog, 'utf8') : ''}`;
  try {
    await until(() => ready(urls, path.join(dir, 'nginx.pid'), nginx, log), { timeoutMs: 10_000, intervalMs: 20, what: () => `nginx answering on ${urls.join(', ')}\n${log()}` });
  } catch (error) {
    await stopNginx(nginx);
    const portTaken = PORT_TAKEN.test(log());
    rmSync(dir, { recursive: true, force: true });
    if (attempts > 1 && portTaken) return startNginx(servers, attempts - 1);
    throw error;
  }
  return {
    urls,
    stop: async () => {
      await stopNginx(nginx);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function nginxConfig(dir: string, servers: readonly string[], ports: readonly number[]): string {
  const at = (name: string) => path.join(dir, name);
  return `
# One process, in the foreground: nothing to orphan, and it can read the test's files whoever runs it.
daemon off;
master_process off;
pid ${at('nginx.pid')};
error_log ${at('error.log')} warn;
events { worker_connections 64; }
http {
  access_log off;
  default_type text/html;
  client_body_temp_path ${at('client_body')};
  proxy_temp_path ${at('proxy')};
  fastcgi_temp_path ${at('fastcgi')};
  uwsgi_temp_path ${at('uwsgi')};
  scgi_temp_path ${at('scgi')};
${servers.map((directives, i) => `  server {\n    listen 127.0.0.1:${ports[i]};\n${directives}\n  }`).join('\n')}
}
`;
}

/**
 * True once nginx wrote its pid file (it does after binding every port: an answer
 * then is its own, not another process's that took a port first) and every URL
 * answers HTTP (any status); throws, with nginx's output, once it has exited.
 */
async function ready(urls: readonly string[], pidFile: string, nginx: SpawnedService, log: () => string): Promise<boolean> {
  if (nginx.child.exitCode !== null || nginx.child.signalCode !== null) throw new Error(`nginx exited:\n${log()}`);
  if (!existsSync(pidFile)) return false;
  const answered = await Promise.all(urls.map((url) => fetch(url, { redirect: 'manual' }).then((r) => (void r.body?.cancel(), true), () => false)));
  return answered.every(Boolean);
}

/** SIGQUIT: nginx's graceful shutdown (finishes the requests in flight); waits for the exit. */
async function stopNginx(nginx: SpawnedService): Promise<void> {
  if (nginx.child.exitCode === null && nginx.child.signalCode === null) nginx.child.kill('SIGQUIT');
  await nginx.exited;
}
