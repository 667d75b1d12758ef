import { Body, Controller, Delete, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiHeader, ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { AppError, Clock } from '@bpc/domain';
import { EndDashboardSession, MAX_LIVE_SESSIONS_PER_TOKEN, StartDashboardSession, StartedDashboardSession } from '@bpc/identity';
import { BodyPipe, CLOCK } from '@bpc/platform';
import { AuthorizedRequest, RequiresSignIn } from '../auth/bearer-auth.guard';
import { credentialsOf } from '../auth/request-credentials';
import { SIGN_IN_BODY_LIMIT_BYTES } from '../auth/sign-in-limits';
import { ApiInternalError, ApiProjectionTimeout, ApiPublicEndpoint, ApiPublicError, ApiRefusesBadBodies, PublicErrorDto, RETRY_AFTER_HEADER } from '../http/public-api-docs';
import { SessionViewDto, SignInDto, signInCredentialOf, WebsitesDto } from './dashboard-session.dto';
import { PublicApiBaseUrl } from './public-api-base-url';
import { clearedSessionCookie, sessionCookie } from './session-cookie';
import { SessionViews } from './session-views';
import { WebsiteViews } from './website-views';

const COOKIE_NOTE = 'The session is the HttpOnly cookie `bpc_session` (SameSite=Strict; Secure when the API is served over HTTPS).';

/** The dashboard's sign-in and session, and the caller's websites: plain public API any client may use. */
@Controller('api')
@ApiTags('session')
export class DashboardSessionController {
  constructor(
    private readonly commands: CommandBus,
    private readonly sessions: SessionViews,
    private readonly websiteViews: WebsiteViews,
    private readonly baseUrl: PublicApiBaseUrl,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  @Post('session')
  @HttpCode(200)
  @ApiOperation({ summary: 'Sign in: exchange an API token or a one-time sign-in link for a dashboard session', description: `${COOKIE_NOTE} A sign-in with a token counts against that token's rate limit (429 RATE_LIMITED with \`Retry-After\` when over); a token holds at most ${MAX_LIVE_SESSIONS_PER_TOKEN} live sessions, a new one ending the oldest. The body is at most ${SIGN_IN_BODY_LIMIT_BYTES} bytes.`, security: [] })
  @ApiOkResponse({ type: SessionViewDto, description: 'The session, with `Set-Cookie: bpc_session=…`', headers: { 'Set-Cookie': { description: 'bpc_session=<secret>; Max-Age=<ttl>; Path=/; HttpOnly; SameSite=Strict[; Secure]', schema: { type: 'string' } } } })
  @ApiRefusesBadBodies()
  @ApiPublicError(401, 'UNAUTHENTICATED: unknown, revoked or expired token (`field` token); unknown, used or expired link (`field` link)')
  @ApiResponse({ status: 429, description: "RATE_LIMITED: too many requests for the token signing in; retry after `Retry-After` seconds", type: PublicErrorDto, headers: RETRY_AFTER_HEADER })
  @ApiPublicError(503, 'LOG_UNAVAILABLE: the event log cannot be reached; no session was started')
  @ApiProjectionTimeout()
  @ApiInternalError()
  async signIn(@Body(new BodyPipe(SignInDto, { forbidUnknownKeys: true })) body: SignInDto, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionViewDto> {
    const started: StartedDashboardSession = await this.commands.execute(new StartDashboardSession(signInCredentialOf(body)));
    const maxAge = Math.max(0, Math.floor((started.expiresAt - this.clock.now()) / 1000));
    // no-store: the answer holds the CSRF token, no cache may keep it.
    void reply.header('set-cookie', sessionCookie(started.secret, maxAge, this.baseUrl.secure())).header('cache-control', 'no-store');
    return this.sessions.of(started.secret);
  }

  @Get('session')
  @RequiresSignIn()
  @ApiPublicEndpoint('session only')
  @ApiOperation({ summary: 'The current dashboard session (by its cookie), with its CSRF token and the websites of its user', description: COOKIE_NOTE })
  @ApiOkResponse({ type: SessionViewDto })
  session(@Req() request: AuthorizedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<SessionViewDto> {
    void reply.header('cache-control', 'no-store');
    return this.sessions.of(sessionSecretOf(request));
  }

  @Delete('session')
  @RequiresSignIn()
  @HttpCode(204)
  @ApiPublicEndpoint('session only')
  @ApiHeader({ name: 'X-CSRF-Token', required: true, description: 'The session\'s `csrfToken`' })
  @ApiOperation({ summary: 'Sign out: the session ends for good and its cookie is cleared', description: COOKIE_NOTE })
  @ApiNoContentResponse({ description: 'Signed out; `Set-Cookie` clears the cookie' })
  @ApiProjectionTimeout()
  async signOut(@Req() request: AuthorizedRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<void> {
    // The guard authenticated the cookie and checked the CSRF token; sessionSecretOf refuses a bearer-only call.
    sessionSecretOf(request);
    await this.commands.execute(new EndDashboardSession(request.principal!.sessionId!));
    void reply.header('set-cookie', clearedSessionCookie(this.baseUrl.secure()));
  }

  @Get('websites')
  @RequiresSignIn()
  @ApiPublicEndpoint()
  @ApiOperation({ summary: "The caller's websites: role, platform module, hostnames and the edge URL their middleware points at" })
  @ApiOkResponse({ type: WebsitesDto })
  async websites(@Req() request: AuthorizedRequest): Promise<WebsitesDto> {
    return { websites: await this.websiteViews.of(request.principal!.userId) };
  }
}

/** The session cookie's value of a request the guard signed in by cookie; a bearer-token call has no session. */
function sessionSecretOf(request: AuthorizedRequest): string {
  const secret = credentialsOf(request).sessionCookie;
  if (request.principal?.via !== 'dashboard' || secret === undefined) throw new AppError('UNAUTHENTICATED', 'no dashboard session: this endpoint takes the session cookie, not a bearer token');
  return secret;
}
