import { execFile } from 'node:child_process';

/** What one wrk run measured. */
export interface WrkResult {
  /** Requests per second over the run. */
  readonly rps: number;
  /** 99th percentile latency, in ms. */
  readonly p99: number;
  readonly requests: number;
  /** Socket errors (connect, read, write, timeout) and answers other than 2xx or 3xx. */
  readonly bad: number;
}

const MS_PER_UNIT: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** The figures of wrk's report (`--latency`); throws for a report without them. */
export function parseWrkReport(report: string): WrkResult {
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(report);
  const p99 = /^\s*99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(report);
  const requests = /(\d+) requests in /.exec(report);
  if (!rps || !p99 || !requests) throw new Error(`wrk: no figures in its report:\n${report}`);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(report);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(report);
  const bad = (socket ? socket.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0) + (non2xx ? Number(non2xx[1]) : 0);
  return { rps: Number(rps[1]), p99: Number(p99[1]) * MS_PER_UNIT[p99[2]], requests: Number(requests[1]), bad };
}

/**
 * wrk (Debian's package) against `url` for `seconds`, one thread keeping
 * `connections` open, in a process of its own. Written in C on epoll, it
 * needs several times less CPU per request than the servers it loads, so on
 * two cores the server saturates first; autocannon, in JavaScript, took as
 * much CPU per request as the edge and saturated first, and plain
 * `node:http` and the edge then measured alike.
 */
export function wrk(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<WrkResult> {
  const args = ['--threads', '1', '--connections', String(connections), '--duration', `${seconds}s`, '--latency', ...Object.entries(headers).flatMap(([name, value]) => ['--header', `${name}: ${value}`]), url];
  return new Promise((resolve, reject) =>
    execFile('wrk', args, (error, stdout, stderr) => {
      if (error) return reject(new Error(`wrk ${url}: ${error.message} ${stderr}`));
      try {
        resolve(parseWrkReport(stdout));
      } catch (parseError) {
        reject(parseError as Error);
      }
    }),
  );
}
