import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { ServePage } from './serve-page/serve-page';

/** Paths the edge app itself answers (health, metrics); everything else is a page request. */
const OWN_PATHS = /^\/(health\/|metrics(\?|$))/;

/**
 * The pre-rendering protocol: `GET /<absolute page URL>` with
 * `X-Prerender-Token`, the bot's `User-Agent` and `Accept-Encoding`. Served
 * from an `onRequest` hook rather than a route, so the page URL reaches us
 * exactly as sent (no router limits on its length or characters).
 */
export function installEdgeRoute(app: NestFastifyApplication, logger: Logger): void {
  const fastify = app.getHttpAdapter().getInstance();
  const serve = app.get(ServePage);
  fastify.addHook('onRequest', async (request, reply) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || OWN_PATHS.test(request.url)) return;
    try {
      const token = request.headers['x-prerender-token'];
      const answer = await serve.serve({
        target: request.url,
        token: Array.isArray(token) ? token[0] : token,
        userAgent: request.headers['user-agent'] ?? '',
        acceptEncoding: request.headers['accept-encoding'],
      });
      await reply.code(answer.statusCode).headers(answer.headers).send(answer.body);
    } catch (error) {
      logger.error({ err: error, url: request.url }, 'edge request failed');
      await reply.code(503).header('retry-after', '10').send({ code: 'UNAVAILABLE', message: 'the cache could not be read' });
    }
    return reply;
  });
}
