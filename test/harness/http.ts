import { Agent, IncomingHttpHeaders, request as httpRequest } from 'node:http';

/** JSON body of a response, loosely typed for assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export async function jsonOf(response: Response): Promise<Json> {
  return response.json();
}

/** A raw HTTP answer: status, headers as Node parsed them, body bytes as sent (no decompression). */
export interface RawAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/**
 * One request over `node:http`, without fetch's help: gzip bodies stay
 * compressed and oversized headers are sent as given. A fresh connection
 * unless an `agent` is passed.
 */
export function rawRequest(base: string, target: string, options: { method?: string; headers?: Record<string, string>; agent?: Agent } = {}): Promise<RawAnswer> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: target, method: options.method ?? 'GET', headers: options.headers ?? {}, agent: options.agent ?? false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
