import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import { LOGGER, readinessReportOf, requestLogFields } from '@bpc/platform';
import { daemonErrorResponse } from './daemon-error-body';

/** Every daemon error leaves in `{status: "error", message}`; nothing unexpected leaks. */
@Catch()
export class DaemonExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, body, unexpected } = daemonErrorResponse(error, request.headers['content-type']);
    // A not-ready answer is the readiness check doing its job (its body names the reason), not a failed request: load balancers poll it.
    const notReady = readinessReportOf(error, status) !== undefined;
    if (unexpected || (status >= 500 && !notReady)) this.logger.error({ err: error, ...requestLogFields(request) }, 'daemon request failed');
    void reply.status(status).send(body);
  }
}
