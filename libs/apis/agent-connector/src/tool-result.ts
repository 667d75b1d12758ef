import type { ApiAnswer } from './api-client';

/** A `tools/call` result: a short text for the model, the data as structured content, `isError` for a refusal. */
export interface ToolResult {
  [key: string]: unknown;
  readonly content: { type: 'text'; text: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

/** The API's error envelope, with the HTTP status it came with. */
export interface ApiRefusal {
  readonly status: number;
  readonly code: string;
  readonly message: string;
  readonly field?: string;
  readonly [extra: string]: unknown;
}

/** A tool's success: the summary first, then the data as JSON (for clients that show the model text only). */
export function toolSuccess(summary: string, data: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text: `${summary}\n${JSON.stringify(data)}` }], structuredContent: data };
}

/** The envelope of a refused call, whatever shape a broken answer has. */
export function refusalOf(answer: ApiAnswer): ApiRefusal {
  const body = (answer.body && typeof answer.body === 'object' ? answer.body : {}) as Record<string, unknown>;
  return {
    ...body,
    status: answer.status,
    code: typeof body.code === 'string' ? body.code : 'INTERNAL',
    message: typeof body.message === 'string' ? body.message : `the API answered HTTP ${answer.status}`,
  };
}

/**
 * An API refusal as a tool error: its code, message and field, and what to do
 * next when the model can act on it. No structured content: a tool's output
 * schema describes its success.
 */
export function toolRefusal(refusal: ApiRefusal, hint?: string): ToolResult {
  const field = refusal.field ? ` (field: ${refusal.field})` : '';
  const text = `Refused: HTTP ${refusal.status} ${refusal.code}: ${refusal.message}${field}.${hint ? ` ${hint}` : ''}\n${JSON.stringify({ error: refusal })}`;
  return { content: [{ type: 'text', text }], isError: true };
}

/** A bad argument the connector itself must see before the API can (a path parameter), refused in the API's own terms. */
export class ArgumentRefusal extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }

  toResult(): ToolResult {
    return toolRefusal({ status: 400, code: 'VALIDATION_FAILED', message: this.message, field: this.field });
  }
}
