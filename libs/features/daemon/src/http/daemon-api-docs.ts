import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiProperty, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import type { OpenApiInfo } from '@bpc/platform';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

/** Name of the `X-Internal-Auth` scheme in the daemon's OpenAPI document. */
export const DAEMON_SECURITY = 'internal-key';

export const DAEMON_OPENAPI: OpenApiInfo = {
  title: 'Bot pre-rendering cache: daemon API',
  description:
    'Internal cache daemon API (spec/daemon-api.md): recache queue control, pause/resume, invalidate, status, scheduler control. Every endpoint takes `X-Internal-Auth`. ' +
    'Bodies are JSON (`Content-Type: application/json`); any other content type is a 400. Every error is `{status: "error", message}`. A known path asked with a method it does not serve answers 405 with `Allow`; an unknown path 404.',
  security: { name: DAEMON_SECURITY, header: 'X-Internal-Auth' },
};

/** `{status: "error", message}`: the daemon's error envelope (spec/daemon-api.md, Errors), for the OpenAPI document. */
export class DaemonErrorDto {
  @ApiProperty({ enum: ['error'] }) status!: 'error';
  @ApiProperty({ example: 'host_id is required', description: 'What went wrong; names the offending field' }) message!: string;
}

const error = (status: number, description: string) => ApiResponse({ status, description, type: DaemonErrorDto });

/** The 403 of the scheduler control endpoints. */
export const ApiNeedsSchedulerControl = () => error(403, 'The scheduler control API is not enabled (`scheduler_control_api: false`)');

/**
 * Key, envelope header and error answers every daemon endpoint shares;
 * `data` describes the payload inside `{success: true, data}` (or `{status: "ok", data}`),
 * `topLevel` what the answer carries beside it.
 */
export function ApiDaemonEndpoint(data: Record<string, SchemaObject>, topLevel: Record<string, SchemaObject> = {}): MethodDecorator {
  return applyDecorators(
    ApiSecurity(DAEMON_SECURITY),
    ApiHeader({ name: 'X-Response-Envelope', required: false, enum: ['success', 'status'], description: 'Envelope form for this request (default: `daemon.envelope`)' }),
    ApiOkResponse({
      description: '`{success: true, data}` (later form) or `{status: "ok", data}` (earlier form, without the later additions)',
      schema: { type: 'object', properties: { success: { type: 'boolean' }, status: { type: 'string' }, data: { type: 'object', properties: data }, ...topLevel } },
    }),
    error(400, 'Rejected input (a field, invalid JSON, a body not sent as `application/json`, a bad `X-Response-Envelope`); the message names it'),
    error(401, 'Missing or wrong X-Internal-Auth'),
    error(500, 'Queue store unavailable (nothing was changed), event log unavailable (not acknowledged), or recorded but not yet applied (applied later); the message says which'),
  );
}

export const int = { type: 'integer' } as const;
export const str = { type: 'string' } as const;
export const bool = { type: 'boolean' } as const;
export const obj = { type: 'object' } as const;
