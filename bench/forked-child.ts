import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** Runs a compiled script of dist/bench (`script` without its extension) as a child process with an IPC channel; its output goes to the bench's. */
export function forkBenchScript(script: string, args: readonly string[] = []): ChildProcess {
  return fork(path.join(__dirname, `${script}.js`), args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
}

/** The child's next IPC message; rejects if it exits first. */
export function nextMessage<T>(child: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: string | null): void => reject(new Error(`child ${child.pid} exited (${code ?? signal}) before its message`));
    child.once('exit', onExit);
    child.once('message', (message) => {
      child.off('exit', onExit);
      resolve(message as T);
    });
  });
}

/** SIGTERM, and the exit awaited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  await exited;
}
