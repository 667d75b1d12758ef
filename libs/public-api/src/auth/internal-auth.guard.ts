import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '@bpc/config';
import { AppError, matchesSha256 } from '@bpc/domain';
import { APP_CONFIG } from '@bpc/platform';

/** Admin endpoints (token CLI, demo data) take the operator's `X-Internal-Auth` key, compared in constant time. */
@Injectable()
export class InternalAuthGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    const presented = context.switchToHttp().getRequest<FastifyRequest>().headers['x-internal-auth'];
    if (!matchesSha256(typeof presented === 'string' ? presented : undefined, this.config.internal_auth_key_sha256)) {
      throw new AppError('UNAUTHENTICATED', 'missing or invalid X-Internal-Auth');
    }
    return true;
  }
}
