import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { LogSink } from '@bpc/domain';
import type { EventEnvelope, EventTuple, TupleEventType } from '@bpc/events';
import type { AppendBatch, FromWorker, KafkaAppendWorkerOptions, ToWorker } from './off-thread-protocol';

/** An append awaiting the worker's answer. */
interface Pending {
  readonly appended: Promise<void>;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

/** Longest `close` waits for the worker to disconnect before terminating it. */
const CLOSE_TIMEOUT_MS = 10_000;

/** A roomy young generation: encoding leaves short-lived garbage per message, and fewer scavenges cost less. */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 96 };

/**
 * Appends to Kafka from a worker thread: kafkajs encodes every message in
 * JavaScript (records, varints, CRC, headers), which on a busy thread costs
 * more than the request that produced the event. The caller's thread only
 * clones the envelopes (or tuples) into the worker; an append resolves once
 * the brokers acknowledged (acks -1), exactly like `KafkaEventLog.append`,
 * and rejects with its error.
 *
 * The worker is started on first use. If it dies, appends in flight reject
 * and the next append starts a new one.
 */
export class OffThreadKafkaAppender {
  private worker?: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private closing?: Promise<void>;

  constructor(
    private readonly options: KafkaAppendWorkerOptions,
    private readonly log: LogSink,
  ) {}

  append(topic: string, events: readonly EventEnvelope[]): Promise<void> {
    return this.send(topic, events.length, { events });
  }

  /** `append` for events of one type handed over as tuples (see `BotRequestTuple`): the worker serialises them with the type's batch encoder (`TUPLE_EVENT_ENCODERS`). */
  appendTuples<T extends TupleEventType>(topic: string, type: T, tuples: readonly EventTuple<T>[]): Promise<void> {
    return this.send(topic, tuples.length, { type, tuples });
  }

  /** Waits for appends in flight, then disconnects the worker's producer and ends the thread. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  private send(topic: string, count: number, batch: AppendBatch): Promise<void> {
    if (this.closing) return Promise.reject(new Error('off-thread Kafka appender is closed'));
    if (count === 0) return Promise.resolve();
    const worker = (this.worker ??= this.startWorker());
    const id = this.nextId++;
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const appended = new Promise<void>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    try {
      worker.postMessage({ kind: 'append', id, topic, ...batch } satisfies ToWorker);
    } catch (error) {
      // Not cloneable: nothing was sent, nothing to wait for.
      reject(error instanceof Error ? error : new Error(String(error)));
      return appended;
    }
    // The answer comes in a later turn.
    this.pending.set(id, { appended, resolve, reject });
    return appended;
  }

  private async shutdown(): Promise<void> {
    await Promise.allSettled([...this.pending.values()].map((p) => p.appended));
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ kind: 'close' } satisfies ToWorker);
    const timer = setTimeout(() => void worker.terminate(), CLOSE_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private startWorker(): Worker {
    const worker = createWorker(this.options);
    worker.on('message', (message: FromWorker) => this.onMessage(message));
    worker.on('error', (error) => this.log.error({ err: error }, 'off-thread Kafka appender: worker failed'));
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = undefined;
      const lost = new Error(`off-thread Kafka appender: worker exited (code ${code}) before the brokers answered`);
      for (const [id, p] of this.pending) {
        this.pending.delete(id);
        p.reject(lost);
      }
    });
    // After the listeners (a 'message' listener refs the thread again): the owner's close() ends it, an idle worker alone does not keep the process alive.
    worker.unref();
    return worker;
  }

  private onMessage(message: FromWorker): void {
    switch (message.kind) {
      case 'appended': {
        const p = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error === undefined) p?.resolve();
        else p?.reject(new Error(message.error));
        return;
      }
      case 'log':
        this.log[message.level](message.fields, message.message);
        return;
    }
  }
}

/**
 * The worker runs the compiled `.js` beside this file; when this file runs as
 * TypeScript (jest) it loads the worker's source through the repository's swc
 * require hook.
 */
function createWorker(options: KafkaAppendWorkerOptions): Worker {
  const extension = path.extname(__filename);
  const script = path.join(__dirname, `kafka-append-worker${extension}`);
  if (extension === '.js') return new Worker(script, { workerData: options, resourceLimits: WORKER_LIMITS });
  const register = path.resolve(__dirname, '../../../../scripts/swc-register.cjs');
  return new Worker(`require(${JSON.stringify(register)}); require(${JSON.stringify(script)});`, { eval: true, workerData: options, resourceLimits: WORKER_LIMITS });
}
