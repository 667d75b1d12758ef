import { createServer, RequestListener, Server } from 'node:http';
import { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyServerOptions } from 'fastify';
import type { Logger } from 'pino';
import { NestPinoLogger } from '../logging/nest-pino-logger';

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
 * A Nest app on Fastify with the structured logger and a per-request log line
 * (the edge's page requests, answered in front of Fastify, are recorded as
 * events instead).
 */
export async function createHttpApp(module: Type | DynamicModule, logger: Logger): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES, logger: false, return503OnClosing: true, serverFactory: singleServer });
  const app = await NestFactory.create<NestFastifyApplication>(module, adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onResponse', async (request, reply) => {
    if (request.url.startsWith('/health/')) return;
    logger.info(
      { method: request.method, url: request.url.split('?')[0], status: reply.statusCode, ms: Math.round(reply.elapsedTime) },
      'request',
    );
  });
  return app;
}
