import type { FastifyInstance } from 'fastify';
import { AppError } from '@bpc/domain';
import { INTERNAL_KEY_REFUSAL, installInternalKeyCheck } from '@bpc/platform';
import { publicErrorResponse } from '../http/public-error-body';

/** The operator endpoints of the public-api app (`npm run cli`). */
const ADMIN_PREFIX = '/internal/admin/';

/** The admin endpoints take the operator key, checked before the body is read; InternalAuthGuard checks again per route. */
export function installAdminAuthentication(fastify: FastifyInstance, keySha256: string): void {
  installInternalKeyCheck(fastify, keySha256, {
    appliesTo: (request) => request.routeOptions.url?.startsWith(ADMIN_PREFIX) === true,
    refuse: (reply) => {
      const { status, body } = publicErrorResponse(new AppError('UNAUTHENTICATED', INTERNAL_KEY_REFUSAL));
      return reply.code(status).send(body);
    },
  });
}
