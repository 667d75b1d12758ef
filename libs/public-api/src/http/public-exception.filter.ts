import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { LOGGER, requestLogFields } from '@bpc/platform';
import { publicErrorResponse } from './public-error-body';

/** Every public error leaves in `{code, message, field?}`; nothing unexpected leaks. */
@Catch()
export class PublicExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const { status, body, unexpected } = publicErrorResponse(error);
    if (unexpected || status >= 500) this.logger.error({ err: error, ...requestLogFields(http.getRequest<FastifyRequest>()) }, 'public api request failed');
    void reply.status(status).send(body);
  }
}
