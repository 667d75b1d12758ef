import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { METRICS_REGISTRY } from '@bpc/platform';
import { EdgeRequestMetrics } from './serve-page/edge-request-metrics';
import { EdgeAnswer, problem } from './serve-page/edge-answer';
import { ServePage } from './serve-page/serve-page';

/** Paths the edge app itself answers through Nest (health, metrics); everything else is a page request. */
const OWN_PATHS = /^\/(health\/|metrics(\?|$))/;

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/**
 * The pre-rendering protocol: `GET /<absolute page URL>` with
 * `X-Prerender-Token`, the bot's `User-Agent`, `Accept-Encoding` and `Accept`.
 *
 * Page requests are the hot path, so they are answered by a plain
 * `node:http` listener placed in front of Fastify's: no router, hooks or
 * reply objects per request, and the page URL reaches us exactly as sent.
 * The edge's own paths, other methods, and every request once shutdown has
 * begun (Fastify then answers 503 and closes idle connections) go to Fastify.
 * Each page request gets its id here: the bot's `X-Request-Id`, the recorded
 * request's id and the logs' `reqId` are the same.
 */
export function installEdgeRoute(app: NestFastifyApplication, logger: Logger): void {
  const fastify = app.getHttpAdapter().getInstance();
  const serve = app.get(ServePage);
  const metrics = new EdgeRequestMetrics(app.get<symbol, Registry>(METRICS_REGISTRY, { strict: false }));
  const server = fastify.server;
  const [fastifyListener] = server.listeners('request') as RequestListener[];
  if (!fastifyListener) throw new Error('edge: the HTTP server has no request listener to put the page route in front of');
  let closing = false;
  fastify.addHook('preClose', async () => {
    closing = true;
  });

  const servePageRequest = async (request: IncomingMessage, response: ServerResponse, requestId: string, receivedAt: number): Promise<void> => {
    let answer: EdgeAnswer;
    try {
      const token = request.headers['x-prerender-token'];
      answer = await serve.serve({
        target: request.url ?? '',
        token: Array.isArray(token) ? token[0] : token,
        userAgent: request.headers['user-agent'] ?? '',
        acceptEncoding: request.headers['accept-encoding'],
        accept: request.headers.accept,
        peerAddress: request.socket.remoteAddress,
        forwardedFor: request.headers['x-forwarded-for'],
        headOnly: request.method === 'HEAD',
        requestId,
        receivedAt,
      });
    } catch (error) {
      logger.error({ err: error, reqId: requestId, url: request.url }, 'edge request failed');
      answer = unavailable(requestId);
    }
    try {
      send(response, answer, closing);
    } catch (error) {
      // E.g. a stored header value Node refuses: the bot gets a 503, the process goes on.
      logger.error({ err: error, reqId: requestId, url: request.url }, 'edge answer could not be written');
      answer = unavailable(requestId);
      if (!response.headersSent) send(response, answer, closing);
      else response.destroy();
    }
    metrics.served(answer.cacheStatus, answer.statusCode, (performance.now() - receivedAt) / 1000);
  };

  server.removeListener('request', fastifyListener);
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (closing || (request.method !== 'GET' && request.method !== 'HEAD') || OWN_PATHS.test(request.url ?? '')) {
      fastifyListener.call(server, request, response);
      return;
    }
    const requestId = randomUUID();
    servePageRequest(request, response, requestId, performance.now()).catch((error: unknown) => {
      logger.error({ err: error, reqId: requestId, url: request.url }, 'edge request failed');
      response.destroy();
    });
  });
}

/** The answer when serving failed unexpectedly (a bug, or an answer Node refused to write). */
function unavailable(requestId: string): EdgeAnswer {
  const answer = problem(503, 'UNAVAILABLE', requestId);
  answer.headers['retry-after'] = '10';
  return answer;
}

/**
 * Writes an answer in one go (HEAD: headers only, Node drops the body). Once
 * shutdown has begun the connection is closed after it, so a keep-alive
 * client does not hold the server open.
 */
function send(response: ServerResponse, answer: EdgeAnswer, closing: boolean): void {
  if (response.destroyed) return;
  if (closing) response.shouldKeepAlive = false;
  response.writeHead(answer.statusCode, answer.headers);
  response.end(answer.body);
}
