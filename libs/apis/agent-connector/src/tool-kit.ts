import type { ApiAnswer, PublicApiClient } from './api-client';
import type { JsonSchema, OpenApiDocument } from './openapi-schemas';
import { pathSegment, ToolArguments } from './tool-arguments';
import { ArgumentRefusal, refusalOf, toolRefusal, ToolResult } from './tool-result';
import { WEBSITE_ARGUMENT } from './tool-schemas';

/**
 * What every tool is made of: its shape, and the helpers that turn a call
 * into public API calls and an API answer into the tool's result. Tools live
 * in files of their own (by capability) and are listed in connector-tools.ts.
 */

/** Rows a query_explorer call returns when the model does not say: enough to reason on, small enough for a context window. */
export const DEFAULT_TOOL_ROWS = 50;

export interface ToolAnnotations {
  readonly title: string;
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** One tool: what a client lists, and how a call becomes public API calls. */
export interface ConnectorTool {
  readonly name: string;
  readonly description: string;
  readonly annotations: ToolAnnotations;
  readonly inputSchema: (document: OpenApiDocument) => JsonSchema;
  readonly outputSchema?: (document: OpenApiDocument) => JsonSchema;
  readonly run: (api: PublicApiClient, args: ToolArguments) => Promise<ToolResult>;
}

export const readOnly = (title: string): ToolAnnotations => ({ title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });

export const ok = (answer: ApiAnswer) => answer.status >= 200 && answer.status < 300;
export const object = (value: unknown) => (value && typeof value === 'object' ? value : {}) as Record<string, unknown>;

/** What the model can do about a refusal, by code. */
export function hintFor(code: string, extra: Record<string, unknown>): string | undefined {
  switch (code) {
    case 'EXPORT_SLOT_BUSY':
      return `Export ${String(extra.exportId)} holds the account's one export slot: call get_export_status with exportId ${String(extra.exportId)} to wait for it (or read it, if it is yours), then start again.`;
    case 'RATE_LIMITED':
      return "The token's rate limit is spent: wait a minute before calling again.";
    case 'EXPLORER_BUSY':
      return 'The account has as many queries running as it may: retry in a few seconds.';
    case 'FORBIDDEN':
      return "The token's role on this website does not allow it (list_websites shows the roles): say so to the user.";
    case 'FEATURE_DISABLED':
      return 'The website has no Data Explorer (platform module off).';
    case 'RECEIPT_NOT_FOUND':
      return "No receipt of that id on this website: pass the receiptId recache_urls returned for this same website.";
    case 'VALIDATION_FAILED':
      return 'Fix the argument named by field (describe_explorers lists columns, filters, operators and periods) and call again.';
    default:
      return undefined;
  }
}

/** The API's answer as the tool's result: `onSuccess` shapes a 2xx, any refusal becomes `isError` with the API's code, message and field. */
export async function call(api: PublicApiClient, request: Parameters<PublicApiClient>[0], onSuccess: (body: Record<string, unknown>) => ToolResult): Promise<ToolResult> {
  const answer = await api(request);
  if (ok(answer)) return onSuccess(object(answer.body));
  const refusal = refusalOf(answer);
  return toolRefusal(refusal, hintFor(refusal.code, refusal));
}

export function guarded(run: ConnectorTool['run']): ConnectorTool['run'] {
  return async (api, args) => {
    try {
      return await run(api, args ?? {});
    } catch (error) {
      if (error instanceof ArgumentRefusal) return error.toResult();
      throw error;
    }
  };
}

export const websitePath = (args: ToolArguments) => `/api/websites/${pathSegment(args, 'website')}`;
export const websiteOnly = (): JsonSchema => ({ type: 'object', properties: { website: WEBSITE_ARGUMENT }, required: ['website'] });

