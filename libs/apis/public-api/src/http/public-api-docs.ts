import { applyDecorators, HttpCode } from '@nestjs/common';
import { ApiBearerAuth, ApiCookieAuth, ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import type { OpenApiInfo } from '@bpc/platform';

/** Name of the bearer scheme in the public OpenAPI document. */
export const PUBLIC_SECURITY = 'bearer';
/** Name of the dashboard session cookie scheme in the public OpenAPI document. */
export const SESSION_SECURITY = 'cookieAuth';

export const PUBLIC_OPENAPI: OpenApiInfo = {
  title: 'Bot pre-rendering cache: public API',
  description:
    'Data Explorer and cache operations (spec/public-api.md). Every `/api/` endpoint (but sign-in, `POST /api/session`) takes `Authorization: Bearer <token>` or, without that header, ' +
    'the dashboard session cookie `bpc_session` that sign-in sets; it is rate limited per token (a session opened with a token counts as that token; `RateLimit-*` headers on every answer, 429 with `Retry-After` when over). ' +
    'A request authenticated by the cookie whose method is not GET or HEAD (every change, JSON bodies and uploads alike, and sign-out) must also send `X-CSRF-Token: <csrfToken>` (from `GET /api/session`); ' +
    'without it, or with a wrong one, the answer is 403 FORBIDDEN with `field` `X-CSRF-Token`. ' +
    'Bodies are JSON (`Content-Type: application/json`); any other content type is a 400. Every error is `{code, message, field?}`. A known path asked with a method it does not serve answers 405 with `Allow`; an unknown path 404.',
  security: [
    { name: PUBLIC_SECURITY, scheme: 'bearer' },
    { name: SESSION_SECURITY, cookie: 'bpc_session', description: 'Dashboard session (POST /api/session); a request that is not GET/HEAD also needs `X-CSRF-Token`' },
  ],
  configuredUrl: (config) => config.exports.public_base_url,
};

/** `{code, message, field?}`: the public error envelope, for the OpenAPI document. */
export class PublicErrorDto {
  @ApiProperty({ example: 'VALIDATION_FAILED', description: 'Stable, machine-readable code (docs/public-api.md lists them)' }) code!: string;
  @ApiProperty({ example: 'urls must hold 1 to 1000 entries, got 1001', description: 'For people' }) message!: string;
  @ApiPropertyOptional({ example: 'urls', description: 'The offending request parameter, when one is to blame' }) field?: string;
}

/** 409 `EXPORT_SLOT_BUSY` names the export holding the account's slot. */
export class ExportSlotBusyErrorDto extends PublicErrorDto {
  @ApiProperty({ example: 7, description: 'The export holding the slot' }) exportId!: number;
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed per window for this token', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
} as const;

/** `Retry-After` of a 429 or of a 503 EXPLORER_BUSY. */
export const RETRY_AFTER_HEADER = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } } as const;

/** One error answer in the public envelope. */
export function ApiPublicError(status: number, description: string, type: typeof PublicErrorDto = PublicErrorDto): MethodDecorator & ClassDecorator {
  return ApiResponse({ status, description, type });
}

/** The answers of an endpoint that reads a JSON body: a body it refuses is a 400. */
export const ApiRefusesBadBodies = () => ApiPublicError(400, 'VALIDATION_FAILED: rejected input (a field, invalid JSON, a body not sent as `application/json`); `field` names it');

/** The answer of a Data Explorer endpoint to an unknown `explorerKey`. */
export const ApiUnknownExplorer = () => ApiPublicError(404, 'NOT_FOUND: unknown explorerKey');

/** The answer of an endpoint whose statements wait their turn for the explorer engine (fair admission). */
export const ApiExplorerBusy = () =>
  ApiResponse({
    status: 503,
    description: 'EXPLORER_BUSY: the account has as many statements waiting or running as it may, or the engine had no place within the time budget; retry after `Retry-After` seconds (also LOG_UNAVAILABLE / STORE_UNAVAILABLE)',
    type: PublicErrorDto,
    headers: RETRY_AFTER_HEADER,
  });

/** A POST that runs explorer statements for its answer (200, not 201): a bad body, a busy engine, a statement over its time budget. */
export const ApiExplorerStatement = () =>
  applyDecorators(
    ApiRefusesBadBodies(),
    ApiExplorerBusy(),
    ApiPublicError(504, 'QUERY_TIMEOUT: the query took longer than `explorer.query_timeout_ms` from its arrival, waiting for the engine included'),
    HttpCode(200),
  );

/** The answer to a bug, wherever it happens. */
export const ApiInternalError = () => ApiPublicError(500, 'INTERNAL: a bug; logged, never leaked');

/** The answer of an endpoint whose change is recorded and then waited for. */
export const ApiProjectionTimeout = () => ApiPublicError(504, 'PROJECTION_TIMEOUT: the change is recorded but was not applied in time; it is applied later, repeating it is safe');

/**
 * Bearer or session cookie auth (either one) and the answers every `/api/` endpoint shares: authentication
 * and access (before anything else), the rate limit, the event log or a
 * store being out of reach (the identity index among them), and a bug.
 */
export function ApiPublicEndpoint(accepts: 'token or session' | 'session only' = 'token or session'): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ...(accepts === 'session only' ? [] : [ApiBearerAuth(PUBLIC_SECURITY)]),
    ApiCookieAuth(SESSION_SECURITY),
    ApiPublicError(401, 'UNAUTHENTICATED: missing, malformed, unknown, revoked or expired token or session'),
    ApiPublicError(403, 'FORBIDDEN (no role, or a role too low, on the website; or no such website; or, signed in by cookie, a change without its `X-CSRF-Token`) or FEATURE_DISABLED (platform module off)'),
    ApiResponse({
      status: 429,
      description: 'RATE_LIMITED: too many requests for this token; retry after `Retry-After` seconds',
      type: PublicErrorDto,
      headers: { ...RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS },
    }),
    ApiInternalError(),
    ApiPublicError(503, 'LOG_UNAVAILABLE / STORE_UNAVAILABLE: the event log or a store cannot be reached (nothing was changed, or it was not acknowledged; the message says which)'),
  );
}
