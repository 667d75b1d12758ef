import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { OpenApiInfo } from '@bpc/platform';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Name of the `X-Internal-Auth` scheme in the daemon's OpenAPI document. */
export const DAEMON_SECURITY = 'internal-key';

export const DAEMON_OPENAPI: OpenApiInfo = {
  title: 'Bot pre-rendering cache: daemon API',
  description: 'Internal cache daemon API (spec/daemon-api.md): recache queue control, pause/resume, invalidate, status, scheduler control. Every endpoint takes `X-Internal-Auth`.',
  security: { name: DAEMON_SECURITY, header: 'X-Internal-Auth' },
};

const ERROR = { type: 'object', properties: { status: { type: 'string', enum: ['error'] }, message: { type: 'string' } }, required: ['status', 'message'] };

/**
 * Key, envelope header and error answers every daemon endpoint shares;
 * `data` describes the payload inside `{success: true, data}` (or `{status: "ok", data}`).
 */
export function ApiDaemonEndpoint(data: Record<string, SchemaObject>): MethodDecorator {
  return applyDecorators(
    ApiSecurity(DAEMON_SECURITY),
    ApiHeader({ name: 'X-Response-Envelope', required: false, enum: ['success', 'status'], description: 'Envelope form for this request (default: `daemon.envelope`)' }),
    ApiOkResponse({
      description: '`{success: true, data}` (later form) or `{status: "ok", data}` (earlier form, without the later additions)',
      schema: { type: 'object', properties: { success: { type: 'boolean' }, status: { type: 'string' }, data: { type: 'object', properties: data } } },
    }),
    ApiResponse({ status: 400, description: 'Rejected input; the message names the field', schema: ERROR }),
    ApiResponse({ status: 401, description: 'Missing or wrong X-Internal-Auth', schema: ERROR }),
    ApiResponse({ status: 500, description: 'Queue store unavailable (nothing was changed), event log unavailable (not acknowledged), or recorded but not yet applied (applied later); the message says which', schema: ERROR }),
  );
}

export const int = { type: 'integer' } as const;
export const str = { type: 'string' } as const;
export const bool = { type: 'boolean' } as const;
export const obj = { type: 'object' } as const;
