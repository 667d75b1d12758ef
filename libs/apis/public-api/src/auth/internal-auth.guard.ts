import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '@bpc/config';
import { AppError } from '@bpc/domain';
import { APP_CONFIG, INTERNAL_KEY_REFUSAL, presentsInternalKey } from '@bpc/platform';

/**
 * Admin endpoints (token CLI, demo data) take the operator's key. The app's
 * hook (installAdminAuthentication) refuses first, before the body is read;
 * this guard keeps the routes closed wherever the module is mounted without it.
 */
@Injectable()
export class InternalAuthGuard implements CanActivate {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  canActivate(context: ExecutionContext): boolean {
    if (!presentsInternalKey(context.switchToHttp().getRequest<FastifyRequest>().headers, this.config.internal_auth_key_sha256)) {
      throw new AppError('UNAUTHENTICATED', INTERNAL_KEY_REFUSAL);
    }
    return true;
  }
}
