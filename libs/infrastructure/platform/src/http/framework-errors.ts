/** The HTTP status a framework error (Nest, Fastify, a body parser) carries, if any. */
export function httpStatusOf(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { getStatus?: () => number; statusCode?: number; status?: number };
  return typeof e.getStatus === 'function' ? e.getStatus() : (e.statusCode ?? (typeof e.status === 'number' ? e.status : undefined));
}

/** Readiness (terminus) answers 503 with its own report of what is down: that report, or undefined for any other error. */
export function readinessReportOf(error: unknown, status: number | undefined): object | undefined {
  return status === 503 && typeof (error as { getResponse?: unknown }).getResponse === 'function' ? (error as { getResponse: () => object }).getResponse() : undefined;
}

/**
 * What a body sent as anything but JSON (415 from the body parser, which each
 * API answers as its 400) tells the caller, naming the type it was sent as:
 * the request's own header (Fastify 5.12's error no longer carries it).
 */
export function wrongContentTypeMessage(sentAs: string | undefined): string {
  const received = sentAs === undefined || sentAs === '' ? 'no Content-Type' : `Content-Type ${sentAs.slice(0, 100)}`;
  return `wrong content type (${received}): send the body as JSON with Content-Type: application/json`;
}
