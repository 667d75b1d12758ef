import { ArgumentsHost, Catch, ExceptionFilter, Inject } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Logger } from 'pino';
import { LOGGER } from '@bpc/platform';
import { publicErrorResponse } from '@bpc/public-api';
import { ExportError } from './export-error';

/** The public envelope `{code, message, field?}` plus the export codes (and `exportId` for a busy slot). */
@Catch()
export class ExportsExceptionFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(error: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (error instanceof ExportError) {
      void reply.status(error.status).send({ code: error.code, message: error.message, ...error.details });
      return;
    }
    const { status, body, unexpected } = publicErrorResponse(error);
    if (unexpected || status >= 500) this.logger.error({ err: error }, 'export request failed');
    void reply.status(status).send(body);
  }
}
