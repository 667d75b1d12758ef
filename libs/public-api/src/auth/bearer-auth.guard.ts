import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import type { Role } from '@bpc/events';
import { authenticate, authorizeWebsite, IdentityIndex, WebsiteAccess } from '@bpc/identity';
import { APP_CONFIG, CLOCK } from '@bpc/platform';

export interface WebsiteRequirement {
  readonly role: Role;
  readonly platformModule: boolean;
}

const REQUIREMENT = 'bpc:website-requirement';

/** Marks a controller or route under `/api/websites/:website` with the role (and module) it needs. */
export const RequiresWebsite = (requirement: WebsiteRequirement) => SetMetadata(REQUIREMENT, requirement);

export type AuthorizedRequest = FastifyRequest & { access?: WebsiteAccess };

/**
 * Bearer-token authentication and per-website authorisation, before the body
 * is validated: 401 UNAUTHENTICATED (missing, unknown, revoked or expired
 * token), 403 FORBIDDEN (no role, or a role too low, on the website), 403
 * FEATURE_DISABLED (platform module off).
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly identity: IdentityIndex,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const requirement = this.reflector.getAllAndOverride<WebsiteRequirement | undefined>(REQUIREMENT, [context.getHandler(), context.getClass()]);
    if (!requirement) return true;
    const request = context.switchToHttp().getRequest<AuthorizedRequest>();
    await this.identity.ready();
    const state = this.identity.view();
    const principal = authenticate(state, request.headers.authorization, this.clock.now());
    const websiteId = (request.params as Record<string, string>).website;
    const website = this.config.websites.find((w) => w.id === websiteId);
    request.access = authorizeWebsite(
      state,
      principal,
      websiteId,
      website && { id: website.id, accountId: website.account_id, platformModule: website.platform_module },
      requirement.role,
      requirement.platformModule,
    );
    return true;
  }
}
