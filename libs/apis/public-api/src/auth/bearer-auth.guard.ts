import { CanActivate, ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import type { AppConfig } from '@bpc/config';
import type { Clock } from '@bpc/domain';
import type { Role } from '@bpc/events';
import { authenticateRequest, authorizeWebsite, IdentityIndex, Principal, WebsiteAccess } from '@bpc/identity';
import { APP_CONFIG, CLOCK } from '@bpc/platform';
import { credentialsOf } from './request-credentials';

export interface WebsiteRequirement {
  readonly role: Role;
  readonly platformModule: boolean;
}

const REQUIREMENT = 'bpc:website-requirement';
const SIGNED_IN = 'bpc:signed-in';

/** Marks a controller or route under `/api/websites/:website` with the role (and module) it needs. */
export const RequiresWebsite = (requirement: WebsiteRequirement) => SetMetadata(REQUIREMENT, requirement);

/** Marks a route outside any website that needs a caller (bearer token or dashboard session), e.g. `GET /api/websites`. */
export const RequiresSignIn = () => SetMetadata(SIGNED_IN, true);

/** `access` on website routes, `principal` on RequiresSignIn routes. */
export type AuthorizedRequest = FastifyRequest & { access?: WebsiteAccess; principal?: Principal };

/**
 * Authentication (bearer token, or dashboard session cookie plus its CSRF
 * rule) and per-website authorisation, before the body is validated: 401
 * UNAUTHENTICATED (missing, unknown, revoked or expired token or session),
 * 403 FORBIDDEN (no role, or a role too low, on the website; a cookie-signed
 * change without its CSRF token), 403 FEATURE_DISABLED (platform module off).
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
    const targets = [context.getHandler(), context.getClass()];
    const requirement = this.reflector.getAllAndOverride<WebsiteRequirement | undefined>(REQUIREMENT, targets);
    const signedIn = this.reflector.getAllAndOverride<boolean | undefined>(SIGNED_IN, targets);
    if (!requirement && !signedIn) return true;
    const request = context.switchToHttp().getRequest<AuthorizedRequest>();
    await this.identity.ready();
    const state = this.identity.view();
    const principal = authenticateRequest(state, credentialsOf(request), this.clock.now());
    if (!requirement) {
      request.principal = principal;
      return true;
    }
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
