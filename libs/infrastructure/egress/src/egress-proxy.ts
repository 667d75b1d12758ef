import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { pipeline } from 'node:stream';
import { silentLog, type LogSink } from '@bpc/support';
import { DEFAULT_RESOLVERS, resolveCheckedAddress, type Resolvers } from './checked-address';
import { EgressRefused, targetOf, type EgressRules, type EgressTarget } from './egress-rules';

/** Set on the proxy's own refusal, so that a render can tell it from the origin's 403. */
export const EGRESS_REFUSED_HEADER = 'x-bpc-egress-refused';

/** Refusals a proxy logs per minute: a hostile page can ask for thousands; the ones past it are counted into the next line logged. */
const REFUSALS_LOGGED_PER_MINUTE = 30;

/** Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

export interface EgressProxyOptions {
  readonly rules: EgressRules;
  readonly log?: LogSink;
  readonly resolvers?: Resolvers;
}

/**
 * The only way out for a browser render: an HTTP forward proxy on loopback
 * that every request of a render's browser context goes through (navigations,
 * redirects, frames, subresources, fetch/XHR, beacons, service workers,
 * WebSockets and TLS as CONNECT tunnels). Each target is resolved once,
 * checked against the rules and connected to at the checked address
 * (`resolveCheckedAddress`); a refused plain-HTTP request gets a 403 marked
 * with `EGRESS_REFUSED_HEADER`, a refused tunnel a 403 the browser reports as
 * a failed connection. One proxy serves one set of rules.
 */
export class EgressProxy {
  private readonly log: LogSink;
  private readonly resolvers: Resolvers;
  private readonly sockets = new Set<Socket>();
  private refusalWindowStart = 0;
  private refusalsLogged = 0;
  private refusalsNotLogged = 0;

  private constructor(
    private readonly server: Server,
    private readonly options: EgressProxyOptions,
    /** `http://127.0.0.1:<port>`, for Chromium's proxy setting. */
    readonly url: string,
  ) {
    this.log = options.log ?? silentLog;
    this.resolvers = options.resolvers ?? DEFAULT_RESOLVERS;
    // A page controls what comes back through the proxy: nothing in it may throw out of a handler and end the process.
    server.on('request', (req, res) => void this.forward(req, res).catch(() => res.destroy()));
    server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => void this.tunnel(req, socket, head).catch(() => socket.destroy()));
    // Chromium tunnels WebSockets with CONNECT; an absolute-form upgrade is not something it sends.
    server.on('upgrade', (_req: IncomingMessage, socket: Socket) => socket.end('HTTP/1.1 501 Not Implemented\r\n\r\n'));
    server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
  }

  static async start(options: EgressProxyOptions): Promise<EgressProxy> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    return new EgressProxy(server, options, `http://127.0.0.1:${port}`);
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  /** A plain-HTTP request in absolute form (`GET http://host/path`). */
  private async forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      res.writeHead(400).end();
      return;
    }
    const target = targetOf(url);
    // Over a plain-HTTP proxy the browser sends only http: URLs in absolute form; https goes through CONNECT.
    const checked = target?.scheme === 'http:' ? await this.check(target, url.href) : this.refused(url.href, `scheme ${url.protocol} is not allowed`);
    if ('refused' in checked) {
      res.writeHead(403, { [EGRESS_REFUSED_HEADER]: '1', 'content-type': 'text/plain' }).end(`refused: ${checked.refused}`);
      return;
    }
    if ('unresolved' in checked) {
      res.writeHead(502, { 'content-type': 'text/plain' }).end(checked.unresolved);
      return;
    }
    const upstream = httpRequest({ host: checked.address, port: target!.port, method: req.method, path: `${url.pathname}${url.search}`, headers: forwardable(req.headers), setHost: false });
    upstream.once('response', (answer) => {
      // The status line is the page's to write: only a status Node can send goes on, without its reason phrase.
      const status = answer.statusCode !== undefined && answer.statusCode >= 200 && answer.statusCode <= 599 ? answer.statusCode : 502;
      try {
        res.writeHead(status, forwardable(answer.headers));
      } catch {
        answer.destroy();
        res.destroy();
        return;
      }
      pipeline(answer, res, () => undefined);
    });
    upstream.once('error', () => (res.headersSent ? res.destroy() : res.writeHead(502).end()));
    // Chromium closing its side (the render ended) ends the upstream request too.
    res.once('close', () => upstream.destroy());
    pipeline(req, upstream, () => undefined);
  }

  /** A CONNECT tunnel (`https:`, `wss:`, `ws:`). */
  private async tunnel(req: IncomingMessage, client: Socket, head: Buffer): Promise<void> {
    client.on('error', () => undefined);
    let url: URL;
    try {
      url = new URL(`http://${req.url ?? ''}`);
    } catch {
      client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
      return;
    }
    const target: EgressTarget = { scheme: 'tunnel', hostname: url.hostname, port: Number(url.port) || 443 };
    const checked = await this.check(target, `CONNECT ${req.url}`);
    if (!('address' in checked)) {
      client.end(`HTTP/1.1 ${'refused' in checked ? `403 Forbidden\r\n${EGRESS_REFUSED_HEADER}: 1` : '502 Bad Gateway'}\r\n\r\n`);
      return;
    }
    const upstream = connect({ host: checked.address, port: target.port });
    upstream.once('connect', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      pipeline(client, upstream, client, () => undefined);
    });
    upstream.once('error', () => (client.writable ? client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n') : client.destroy()));
    client.once('close', () => upstream.destroy());
  }

  /** The checked address to connect to; a refusal (logged: someone's page tried to reach in); or a name that does not resolve. */
  private async check(target: EgressTarget, what: string): Promise<{ address: string } | { refused: string } | { unresolved: string }> {
    try {
      return { address: (await resolveCheckedAddress(target, this.options.rules, this.resolvers)).address };
    } catch (error) {
      if (error instanceof EgressRefused) return this.refused(what, error.message);
      return { unresolved: `${target.hostname} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'error'})` };
    }
  }

  private refused(what: string, reason: string): { refused: string } {
    const now = Date.now();
    if (now - this.refusalWindowStart >= 60_000) {
      this.refusalWindowStart = now;
      this.refusalsLogged = 0;
    }
    if (this.refusalsLogged < REFUSALS_LOGGED_PER_MINUTE) {
      this.refusalsLogged += 1;
      this.log.warn({ target: what, reason, notLoggedBefore: this.refusalsNotLogged }, 'render request refused');
      this.refusalsNotLogged = 0;
    } else {
      this.refusalsNotLogged += 1;
    }
    return { refused: reason };
  }
}

function forwardable(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const named = new Set((String(headers.connection ?? '')).split(',').map((h) => h.trim().toLowerCase()));
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name)) continue;
    kept[name] = value;
  }
  return kept;
}
