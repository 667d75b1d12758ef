import path from 'node:path';
import { parentPort, Worker, type ResourceLimits, type TransferListItem } from 'node:worker_threads';
import type { LogSink } from './log-sink';

/** What the owner sends: a call, or the request to finish (answer what is in flight, release, end the thread). */
export type ToCallWorker<Q> = { readonly kind: 'call'; readonly id: number; readonly request: Q } | { readonly kind: 'close' };

/** What a call worker sends back: the answer to call `id`, or a line for the owner's logger. */
export type FromCallWorker<A> =
  | { readonly kind: 'answer'; readonly id: number; readonly answer?: A; readonly error?: string }
  | { readonly kind: 'log'; readonly level: 'info' | 'warn' | 'error'; readonly fields: object; readonly message: string };

export interface WorkerCallsOptions {
  /** The worker script's path without extension: the compiled `.js` runs as is, the `.ts` source (jest) through the repository's swc require hook. */
  readonly script: string;
  readonly workerData?: unknown;
  readonly resourceLimits?: ResourceLimits;
  /** What the worker is, for messages and logs. */
  readonly label: string;
  readonly log: LogSink;
}

interface Pending<A> {
  readonly answered: Promise<A>;
  readonly resolve: (answer: A) => void;
  readonly reject: (error: Error) => void;
}

/** Longest `close` waits for the worker to finish before terminating it. */
const CLOSE_TIMEOUT_MS = 10_000;

/**
 * Calls into a worker thread: each `call` posts a request and resolves with
 * the worker's answer (see `answerCalls`), or rejects with its error.
 *
 * The worker is started on first use and does not keep the process alive by
 * itself. If it dies, calls in flight reject and the next call starts a new
 * one. `close` waits for the calls in flight, then lets the worker finish.
 */
export class WorkerCalls<Q, A> {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending<A>>();
  private nextId = 1;
  private closing?: Promise<void>;

  constructor(private readonly options: WorkerCallsOptions) {}

  call(request: Q, transfer?: readonly TransferListItem[]): Promise<A> {
    if (this.closing) return Promise.reject(new Error(`${this.options.label} is closed`));
    const worker = (this.worker ??= this.startWorker());
    const id = this.nextId++;
    let resolve!: (answer: A) => void;
    let reject!: (error: Error) => void;
    const answered = new Promise<A>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    try {
      worker.postMessage({ kind: 'call', id, request } satisfies ToCallWorker<Q>, transfer);
    } catch (error) {
      // Not cloneable: nothing was sent, nothing to wait for.
      reject(error instanceof Error ? error : new Error(String(error)));
      return answered;
    }
    // The answer comes in a later turn.
    this.pending.set(id, { answered, resolve, reject });
    return answered;
  }

  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /** Calls in flight get up to CLOSE_TIMEOUT_MS to be answered and the worker as long again to finish; then it is terminated (what is still pending rejects). */
  private async shutdown(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const timer = setTimeout(() => void worker.terminate(), 2 * CLOSE_TIMEOUT_MS);
    await Promise.race([Promise.allSettled([...this.pending.values()].map((p) => p.answered)), new Promise((r) => setTimeout(r, CLOSE_TIMEOUT_MS).unref())]);
    worker.postMessage({ kind: 'close' } satisfies ToCallWorker<Q>);
    await exited;
    clearTimeout(timer);
  }

  private startWorker(): Worker {
    const worker = createWorker(this.options);
    worker.on('message', (message: FromCallWorker<A>) => this.onMessage(message));
    worker.on('error', (error) => this.options.log.error({ err: error }, `${this.options.label}: worker failed`));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      const lost = new Error(`${this.options.label}: worker exited (code ${code}) before it answered`);
      for (const [id, p] of this.pending) {
        this.pending.delete(id);
        p.reject(lost);
      }
    });
    // After the listeners (a 'message' listener refs the thread again): the owner's close() ends it, an idle worker alone does not keep the process alive.
    worker.unref();
    return worker;
  }

  private onMessage(message: FromCallWorker<A>): void {
    switch (message.kind) {
      case 'answer': {
        const p = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error === undefined) p?.resolve(message.answer as A);
        else p?.reject(new Error(message.error));
        return;
      }
      case 'log':
        this.options.log[message.level](message.fields, message.message);
        return;
    }
  }
}

function createWorker(options: WorkerCallsOptions): Worker {
  const extension = path.extname(__filename);
  const script = `${options.script}${extension}`;
  const settings = { workerData: options.workerData, resourceLimits: options.resourceLimits };
  if (extension === '.js') return new Worker(script, settings);
  const register = path.resolve(__dirname, '../../../../scripts/swc-register.cjs');
  return new Worker(`require(${JSON.stringify(register)}); require(${JSON.stringify(script)});`, { ...settings, eval: true });
}

/** An answer and what to transfer with it rather than copy. */
export interface Answer<A> {
  readonly answer: A;
  readonly transfer?: readonly TransferListItem[];
}

/**
 * The worker side of `WorkerCalls`: answers each call with `handle` (calls
 * may run concurrently), and on `close` runs `onClose` and ends the thread.
 * `log` forwards lines to the owner's logger (fields reduced to what can
 * cross threads).
 */
export function answerCalls<Q, A>(handle: (request: Q) => Promise<Answer<A>> | Answer<A>, onClose: () => Promise<void> = async () => undefined): void {
  const port = parentPort!;
  port.on('message', (message: ToCallWorker<Q>) => {
    if (message.kind === 'close') {
      onClose().finally(() => port.close());
      return;
    }
    const fail = (error: unknown): void => port.postMessage({ kind: 'answer', id: message.id, error: error instanceof Error ? error.message : String(error) } satisfies FromCallWorker<A>);
    Promise.resolve()
      .then(() => handle(message.request))
      .then(({ answer, transfer }) => port.postMessage({ kind: 'answer', id: message.id, answer } satisfies FromCallWorker<A>, transfer))
      // An answer that could not be posted (not cloneable) fails its call, not the thread.
      .catch(fail);
  });
}

/** A LogSink whose lines go to the owner's logger (from inside a worker). */
export function ownerLog(describe: (error: Error) => unknown = (error) => ({ name: error.name, message: error.message })): LogSink {
  const port = parentPort!;
  const forward =
    (level: 'info' | 'warn' | 'error') =>
    (fields: object, message: string): void => {
      const plain = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v instanceof Error ? describe(v) : v]));
      try {
        port.postMessage({ kind: 'log', level, fields: plain, message } satisfies FromCallWorker<never>);
      } catch {
        port.postMessage({ kind: 'log', level, fields: {}, message } satisfies FromCallWorker<never>);
      }
    };
  return { info: forward('info'), warn: forward('warn'), error: forward('error') };
}
