import { Json, jsonOf } from './http';
import type { TestClock } from './test-clock';
import { TEST_INTERNAL_KEY } from './test-config';
import { until } from './until';

export interface DaemonAnswer {
  readonly status: number;
  readonly body: Json;
}

/** Calls the daemon API with the test key (or the given headers). */
export class DaemonClient {
  constructor(
    readonly baseUrl: string,
    private readonly defaultHeaders: Record<string, string> = { 'x-internal-auth': TEST_INTERNAL_KEY },
  ) {}

  async post(path: string, body?: unknown, headers: Record<string, string> = {}): Promise<DaemonAnswer> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: 'POST',
      headers: { ...this.defaultHeaders, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: response.status, body: await jsonOf(response) };
  }

  async get(path: string, headers: Record<string, string> = {}): Promise<DaemonAnswer> {
    const response = await fetch(`${this.baseUrl}${path}`, { headers: { ...this.defaultHeaders, ...headers } });
    return { status: response.status, body: await jsonOf(response) };
  }

  /** A host's queue counts and pause from `/status` (its `drain_estimate`, an estimate that moves with time, left out: see `drainEstimate`). */
  async queues(hostId = 1): Promise<Json> {
    const { drain_estimate: _estimate, ...counts } = (await this.get('/status')).body.data.queues[String(hostId)];
    return counts;
  }

  /** A host's `drain_estimate` from `/status`. */
  async drainEstimate(hostId = 1): Promise<Json> {
    return (await this.get('/status')).body.data.queues[String(hostId)].drain_estimate;
  }

  /**
   * The status once the scheduler ticked after this call, for asserting that
   * a tick pulled nothing. The tick is told by its `last_tick`, later than
   * the time of the call (on `clock`, the daemon's test clock if it has one:
   * moved 1 ms here, as it stands still). A tick claims due work at once,
   * and the queue store answers in order (one connection): the status read
   * after the one that saw the tick reaches the store behind that claim, so
   * by the read after that, whatever the tick pulled is in `internal_queue`
   * (or was tried).
   */
  async statusAfterTick(clock?: TestClock): Promise<Json> {
    clock?.advance(1);
    const after = clock ? clock.now() - 1 : Date.now();
    await until(async () => Date.parse((await this.get('/status')).body.data.daemon.last_tick ?? '') > after, { what: `a scheduler tick after ${new Date(after).toISOString()}` });
    await this.get('/status');
    return (await this.get('/status')).body.data;
  }
}
