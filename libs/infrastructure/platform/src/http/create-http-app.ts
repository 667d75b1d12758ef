import { createServer, IncomingMessage, RequestListener, Server } from 'node:http';
import { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { NestPinoLogger } from '../logging/nest-pino-logger';
import { METRICS_REGISTRY } from '../metrics/metrics.module';
import { httpRequestMetrics } from './http-request-metrics';
import { installMethodNotAllowed } from './method-not-allowed';
import { REQUEST_ID_HEADER, requestIdOf } from './request-id';
import { requestLogFields } from './request-log-fields';

/** Large enough for 10,000 URLs in one recache call. */
const BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/**
 * One HTTP server per app, bound to exactly the configured address, set up as
 * Fastify sets up its own (it has filled in its defaults by the time it calls
 * the factory). Without a factory Fastify adds a server for every other
 * address a host name resolves to (`localhost`: 127.0.0.1 and ::1), which a
 * listener installed on the app's server (the edge's page route) would miss.
 */
const singleServer = (handler: RequestListener, options: FastifyServerOptions): Server => {
  const server = createServer(handler);
  server.keepAliveTimeout = options.keepAliveTimeout!;
  server.requestTimeout = options.requestTimeout!;
  server.setTimeout(options.connectionTimeout);
  if (options.maxRequestsPerSocket! > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket!;
  return server;
};

/**
 * A Nest app on Fastify with the structured logger, JSON bodies only, 405
 * with `Allow` for a known path asked with another method, request ids (a sane
 * incoming `X-Request-Id`, else a fresh one; returned in the answer), and per
 * request a log line and `bpc_http_request*` metrics (the edge's page
 * requests, answered in front of Fastify, are recorded and counted by the
 * edge instead). The app's module must import MetricsModule.
 */
export async function createHttpApp(module: Type | DynamicModule, logger: Logger): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: BODY_LIMIT_BYTES,
    logger: false,
    return503OnClosing: true,
    serverFactory: singleServer,
    genReqId: (request: IncomingMessage) => requestIdOf(request.headers[REQUEST_ID_HEADER]),
  });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
    // Bodies are JSON or nothing: without Nest's parsers (form bodies among them) and Fastify's text/plain one, any other Content-Type is 415, which each API answers as its 400.
    bodyParser: false,
  });
  const observe = httpRequestMetrics(app.get<symbol, Registry>(METRICS_REGISTRY, { strict: false }));
  const fastify = app.getHttpAdapter().getInstance();
  fastify.removeContentTypeParser('text/plain');
  installMethodNotAllowed(fastify);
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(REQUEST_ID_HEADER, request.id);
    done();
  });
  fastify.addHook('onResponse', async (request, reply) => {
    const fields = requestLogFields(request);
    observe(fields.method, fields.route, reply.statusCode, reply.elapsedTime / 1000);
    if (request.url.startsWith('/health/')) return;
    // The path only: a query may hold a download link's signature.
    logger.info({ ...fields, url: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });
  return app;
}
