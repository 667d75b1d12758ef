import { DynamicModule, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { NestPinoLogger } from '../logging/nest-pino-logger';

/** Large enough for 10,000 URLs in one recache call. */
const BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/** A Nest app on Fastify with the structured logger and a per-request log line. */
export async function createHttpApp(module: Type | DynamicModule, logger: Logger): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({ bodyLimit: BODY_LIMIT_BYTES, logger: false, return503OnClosing: true });
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
