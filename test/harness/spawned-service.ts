import { ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { until } from './until';

const root = path.resolve(__dirname, '..', '..');
/** Spawned processes not yet exited, killed after their test file (see `killSpawnedServices`). */
const alive = new Set<ChildProcess>();

export interface SpawnedService {
  readonly child: ChildProcess;
  /** Resolves with the exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
  output(): string;
}

/**
 * Runs an app's `main.ts` as a real process (TypeScript through the swc
 * require hook), for tests that kill it or read its exit code.
 */
export function spawnService(mainTs: string, env: NodeJS.ProcessEnv): SpawnedService {
  return spawnNode(['-r', './scripts/swc-register.cjs', mainTs], env);
}

/** Runs Node with `args` (flags, then a script) from the repository's root, its output collected (see `spawnService`). */
export function spawnNode(args: readonly string[], env: NodeJS.ProcessEnv): SpawnedService {
  return spawnProcess(process.execPath, args, env);
}

/** Runs any program from the repository's root, its output collected and killed with the file if still running (see `killSpawnedServices`). */
export function spawnProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): SpawnedService {
  const child = spawn(command, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  alive.add(child);
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => {
      alive.delete(child);
      resolve(code ?? signal ?? -1);
    }),
  );
  return { child, exited, output: () => output };
}

/**
 * SIGKILLs every spawned process still running and waits for them to exit: a
 * test that failed half-way must not leave one holding CPU and ports for the
 * rest of the run. Run after each e2e file, before the file's own `afterAll`
 * hooks (so a test stops its services gracefully itself, when it must).
 */
export async function killSpawnedServices(): Promise<void> {
  await Promise.all(
    [...alive].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          if (!child.kill('SIGKILL') || child.exitCode !== null || child.signalCode !== null) resolve();
        }),
    ),
  );
}

export async function waitUntilAnswers(url: string, headers: Record<string, string>, timeoutMs: number, service?: SpawnedService): Promise<void> {
  const answers = async (): Promise<boolean> => {
    const status = await fetch(url, { headers }).then((r) => r.status, () => undefined);
    if (status !== 200 && service && service.child.exitCode !== null) throw new Error(`service exited early:\n${service.output().slice(-3000)}`);
    return status === 200;
  };
  await until(answers, { timeoutMs, intervalMs: 100, what: () => `${url} answering 200\n${service?.output().slice(-3000) ?? ''}` });
}
