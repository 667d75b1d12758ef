import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { demoSite, demoSiteAnswer, type DemoSite } from './demo-site-answer';

/**
 * The demo site on a loopback port: what the demo configuration's host
 * renders from (docs/demo-site.md). GET and HEAD only, nothing stored.
 */
export class DemoSiteServer {
  private readonly site: DemoSite;
  private readonly server: Server;
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(baseUrl: string) {
    this.site = demoSite(baseUrl);
    this.server = createServer((req, res) => this.handle(req, res));
  }

  /** Listens on 127.0.0.1:`port` (0: a free one) and resolves with the site's local address. */
  async start(port: number): Promise<string> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, '127.0.0.1', () => resolve());
    });
    const address = this.server.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  }

  async stop(): Promise<void> {
    this.timers.forEach(clearTimeout);
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const answer = demoSiteAnswer(this.site, req.url ?? '/');
    const send = () => res.writeHead(answer.status, { ...answer.headers, 'content-length': Buffer.byteLength(answer.body) }).end(req.method === 'HEAD' ? undefined : answer.body);
    if (!answer.delayMs) {
      send();
      return;
    }
    // The slow page is slow on purpose (demo-site-answer.ts).
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      send();
    }, answer.delayMs);
    this.timers.add(timer);
  }
}
