import { Json, jsonOf } from './http';
import { TEST_INTERNAL_KEY } from './test-config';

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

  async queues(hostId = 1): Promise<Json> {
    return (await this.get('/status')).body.data.queues[String(hostId)];
  }
}
