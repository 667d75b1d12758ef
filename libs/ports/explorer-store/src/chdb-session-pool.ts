import { resolve } from 'node:path';
import type { Session } from 'chdb';
import { ExplorerStoreError } from './explorer-store-error';

type ChdbModule = typeof import('chdb');

// Loading chdb maps its engine library (~160 MB of RSS), so it happens on the
// first session, not when a cluster-mode app merely imports this library.
function chdb(): ChdbModule {
  return require('chdb') as ChdbModule;
}

/**
 * Data directories bound by open pools of this module instance, with how many
 * pools hold each. libchdb binds ONE data directory per process: sessions on
 * the same directory coexist, a second directory is refused until every
 * session of the first is closed. This map turns that into an early, explicit
 * error. It cannot see sessions opened through another copy of this module
 * (jest gives every test file its own module registry but reuses worker
 * processes), so the engine's own refusal is translated too.
 */
const boundPaths = new Map<string, number>();

/**
 * Sessions (native chDB connections) on one data directory, each leased to
 * one operation at a time. chDB allows one active stream per connection and a
 * query on a connection with an open stream kills that stream, so every
 * operation gets its own connection; idle ones are kept for reuse.
 */
export class ChdbSessionPool {
  readonly path: string;
  #idle: Session[] = [];
  readonly #leased = new Set<Session>();
  #bound = false;
  #closed = false;
  #opened = false;

  constructor(
    path: string,
    private readonly connectionArgs: readonly string[],
    private readonly maxIdle = 4,
  ) {
    this.path = resolve(path);
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** A session nobody else uses until `release`; opens one when none is idle. */
  acquire(): Session {
    if (this.#closed) throw new ExplorerStoreError('explorer store is closed');
    this.#bind();
    try {
      const session = this.#idle.pop() ?? this.#open();
      this.#leased.add(session);
      return session;
    } catch (err) {
      if (this.#leased.size === 0) this.#unbind();
      throw err;
    }
  }

  /**
   * Returns a session. `reusable: false` closes it instead, e.g. after a stream
   * was abandoned mid-way, whose cancellation may still be settling natively.
   */
  release(session: Session, reusable: boolean): void {
    this.#leased.delete(session);
    if (reusable && !this.#closed && this.#idle.length < this.maxIdle) this.#idle.push(session);
    else session.close();
  }

  /**
   * Closes every session, including ones leased to open streams (those streams
   * then fail), and waits until the engine has really let go of the directory
   * so another data path may be opened in this process.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const session of [...this.#idle, ...this.#leased]) session.close();
    this.#idle = [];
    this.#leased.clear();
    this.#unbind();
    if (this.#opened) await chdb().drainPending();
  }

  #bind(): void {
    if (this.#bound) return;
    const other = [...boundPaths.keys()].find((path) => path !== this.path);
    if (other !== undefined) throw pathInUse(other, this.path);
    boundPaths.set(this.path, (boundPaths.get(this.path) ?? 0) + 1);
    this.#bound = true;
  }

  #unbind(): void {
    if (!this.#bound) return;
    const holders = (boundPaths.get(this.path) ?? 1) - 1;
    if (holders > 0) boundPaths.set(this.path, holders);
    else boundPaths.delete(this.path);
    this.#bound = false;
  }

  #open(): Session {
    try {
      const session = new (chdb().Session)(this.path, { connectionArgs: [...this.connectionArgs] });
      this.#opened = true;
      return session;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (/one active data directory|still releasing/.test(message)) throw pathInUse('another directory', this.path, err);
      throw new ExplorerStoreError(`chDB session on ${this.path} failed to open: ${message}`, undefined, undefined, {
        cause: err,
      });
    }
  }
}

function pathInUse(other: string, wanted: string, cause?: unknown): ExplorerStoreError {
  return new ExplorerStoreError(
    `chDB binds one data directory per process: ${other} is still open, so ${wanted} cannot be opened; ` +
      'close every ChdbExecutor (and chdb session) on it first',
    undefined,
    undefined,
    { cause },
  );
}
