import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { AppError } from '@bpc/domain';
import { LOGGER, readinessReportOf, requestLogFields } from '@bpc/platform';
import { publicErrorResponse } from './public-error-body';

/** Every public error leaves in `{code, message, field?}`; nothing unexpected leaks. */
@Catch()
export class PublicExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, body, unexpected } = publicErrorResponse(error, request.headers['content-type']);
    const fields = () => requestLogFields(request);
    if (error instanceof AppError && (error.code === 'QUERY_TIMEOUT' || error.code === 'EXPLORER_BUSY')) {
      // What the caller asked for took too long, or waits its turn: worth a line, not a stack.
      this.logger.warn({ ...fields(), code: error.code, message: error.message }, error.code === 'QUERY_TIMEOUT' ? 'public api query timed out' : 'public api query refused: the explorer is busy');
    } else if (unexpected || (status >= 500 && readinessReportOf(error, status) === undefined)) {
      // A not-ready answer is the readiness check doing its job (its body names the reason), not a failed request: load balancers poll it.
      this.logger.error({ err: error, ...fields() }, 'public api request failed');
    }
    if (error instanceof AppError && error.retryAfterS !== undefined) void reply.header('Retry-After', error.retryAfterS);
    void reply.status(status).send(body);
  }
}
