import { Transform } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { AppError, Clock } from '@bpc/domain';
import { authenticateToken, IdentityIndex, tokenIdOf } from '@bpc/identity';
import { publicErrorResponse } from '../http/public-error-body';
import type { TokenRateLimiter } from '../rate-limit/token-rate-limiter';
import { isSignIn } from './request-credentials';

/** A sign-in body is `{"token": …}` or `{"link": …}` of at most 200 characters: 4 KiB is plenty, and is all an anonymous caller gets parsed. */
export const SIGN_IN_BODY_LIMIT_BYTES = 4096;

const TOO_LARGE = (): AppError => new AppError('VALIDATION_FAILED', `request body too large: a sign-in body is at most ${SIGN_IN_BODY_LIMIT_BYTES} bytes`, 'body');

/**
 * Limits on `POST /api/session`, which anyone may call: a body larger than
 * SIGN_IN_BODY_LIMIT_BYTES is refused before it is read (by Content-Length)
 * or as soon as it grows past it (chunked); and a sign-in with a genuine API
 * token counts against that token's rate limit, like any request of it, so a
 * token holder cannot record sessions without end (429 with the usual
 * headers). Unknown or malformed tokens count nothing (they are refused with
 * 400/401 and record nothing); links are single use.
 */
export function installSignInLimits(fastify: FastifyInstance, identity: IdentityIndex, clock: Clock, limiter?: TokenRateLimiter): void {
  fastify.addHook('onRequest', async (request, reply) => {
    if (!isSignIn(request)) return;
    const length = Number(request.headers['content-length'] ?? 0);
    if (!(length > SIGN_IN_BODY_LIMIT_BYTES)) return;
    const { status, body } = publicErrorResponse(TOO_LARGE());
    return reply.code(status).header('connection', 'close').send(body);
  });
  fastify.addHook('preParsing', async (request, _reply, payload) => (isSignIn(request) ? capped(payload) : payload));
  if (!limiter) return;
  fastify.addHook('preValidation', async (request, reply) => {
    if (!isSignIn(request)) return;
    try {
      await identity.ready();
    } catch {
      return; // The sign-in itself answers LOG_UNAVAILABLE: nothing to count.
    }
    const tokenId = genuineTokenIdOf((request.body as { token?: unknown } | null)?.token, identity, clock.now());
    if (tokenId !== undefined && (await limiter.refuse(tokenId, clock.now(), reply))) return reply;
  });
}

/** The id of a presented sign-in token that is well-shaped (checked before any hashing), known, unrevoked and unexpired. */
function genuineTokenIdOf(presented: unknown, identity: IdentityIndex, nowMs: number): string | undefined {
  if (typeof presented !== 'string' || tokenIdOf(presented) === undefined) return undefined;
  try {
    return authenticateToken(identity.view(), presented, nowMs).tokenId;
  } catch {
    return undefined;
  }
}

/** The body stream, failing (400 VALIDATION_FAILED naming `body`) once more than SIGN_IN_BODY_LIMIT_BYTES have come. */
function capped(payload: NodeJS.ReadableStream): NodeJS.ReadableStream {
  let received = 0;
  const limit = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > SIGN_IN_BODY_LIMIT_BYTES) callback(Object.assign(TOO_LARGE(), { statusCode: 413 }));
      else callback(null, chunk);
    },
  });
  payload.on('error', (error) => limit.destroy(error));
  return payload.pipe(limit);
}
