import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';
import type { OpenApiInfo } from '@bpc/platform';

/** Name of the bearer scheme in the public OpenAPI document. */
export const PUBLIC_SECURITY = 'bearer';

export const PUBLIC_OPENAPI: OpenApiInfo = {
  title: 'Bot pre-rendering cache: public API',
  description: 'Data Explorer and cache operations (spec/public-api.md). Every `/api/` endpoint takes `Authorization: Bearer <token>` and is rate limited per token (`RateLimit-*` headers on every answer, 429 with `Retry-After` when over).',
  security: { name: PUBLIC_SECURITY, scheme: 'bearer' },
};

/** `{code, message, field?}`: the public error envelope, for the OpenAPI document. */
export class PublicErrorDto {
  @ApiProperty({ example: 'VALIDATION_FAILED', description: 'Stable, machine-readable code' }) code!: string;
  @ApiProperty({ example: 'urls must hold 1 to 1000 entries, got 1001' }) message!: string;
  @ApiPropertyOptional({ example: 'urls', description: 'The offending request parameter, when one is to blame' }) field?: string;
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests allowed per window for this token', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
} as const;

/** `Retry-After` of a 429 or of a 503 EXPLORER_BUSY. */
export const RETRY_AFTER_HEADER = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } } } as const;

/** Bearer auth, rate-limit headers and the error answers every `/api/` endpoint shares. */
export function ApiPublicEndpoint(): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiBearerAuth(PUBLIC_SECURITY),
    ApiResponse({ status: 400, description: 'VALIDATION_FAILED: rejected input, `field` names it', type: PublicErrorDto }),
    ApiResponse({ status: 401, description: 'UNAUTHENTICATED: missing, unknown, revoked or expired token', type: PublicErrorDto }),
    ApiResponse({ status: 403, description: 'FORBIDDEN (no role or a role too low on the website) or FEATURE_DISABLED', type: PublicErrorDto }),
    ApiResponse({
      status: 429,
      description: 'RATE_LIMITED: too many requests for this token; retry after `Retry-After` seconds',
      type: PublicErrorDto,
      headers: { ...RETRY_AFTER_HEADER, ...RATE_LIMIT_HEADERS },
    }),
    ApiResponse({ status: 503, description: 'STORE_UNAVAILABLE / LOG_UNAVAILABLE', type: PublicErrorDto }),
  );
}

export { RATE_LIMIT_HEADERS };
