import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How the origin answers one request: status, body and how long it takes. */
export interface OriginAnswer {
  readonly status: number;
  readonly body: string;
  /** Slow on purpose: answered this long after the request. */
  readonly delayMs?: number;
  /** Held: answered once this resolves (see `gate`). */
  readonly heldUntil?: Promise<void>;
  /** Added to (or replacing) the default `content-type: text/html`. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A small real HTTP origin for scheduler and renderer tests: answers per
 * path, counts hits and the highest number of requests in flight at once.
 */
export class TestOrigin {
  readonly hits = new Map<string, number>();
  /** Paths in the order their requests arrived. */
  readonly order: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  /** Per path: requests in flight now, and the most ever in flight at once (two renders of one page overlapping show here). */
  readonly inFlightByPath = new Map<string, number>();
  readonly maxInFlightByPath = new Map<string, number>();
  private server?: Server;

  constructor(private readonly answer: (path: string, hit: number) => OriginAnswer = () => ({ status: 200, body: '<html><body>ok</body></html>' })) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  totalHits(): number {
    return [...this.hits.values()].reduce((a, b) => a + b, 0);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    const hit = (this.hits.get(path) ?? 0) + 1;
    this.hits.set(path, hit);
    this.order.push(path);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const ofPath = (this.inFlightByPath.get(path) ?? 0) + 1;
    this.inFlightByPath.set(path, ofPath);
    this.maxInFlightByPath.set(path, Math.max(this.maxInFlightByPath.get(path) ?? 0, ofPath));
    try {
      const answer = this.answer(path, hit);
      await answer.heldUntil;
      // The delay is what the test wants: an origin that answers slowly.
      if (answer.delayMs) await new Promise((r) => setTimeout(r, answer.delayMs));
      res.writeHead(answer.status, { 'content-type': 'text/html; charset=utf-8', ...answer.headers }).end(answer.body);
    } finally {
      this.inFlight -= 1;
      this.inFlightByPath.set(path, this.inFlightByPath.get(path)! - 1);
    }
  }
}
