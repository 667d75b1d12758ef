import { Inject, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { AppConfig, ENVELOPE_FORMS, EnvelopeForm } from '@bpc/config';
import { validationError } from '@bpc/domain';
import { APP_CONFIG } from '@bpc/platform';

/** A request picks the success envelope with this header; absent = the deployment's `daemon.envelope`. */
export const ENVELOPE_HEADER = 'x-response-envelope';

export type LaterForm<T> = { success: true; data: T };
export type EarlierForm<T> = { status: 'ok'; data: T };

/**
 * Wraps daemon answers in the later form `{success: true, data}` or the
 * earlier `{status: "ok", data}`; the earlier form leaves out what the later
 * one added (`paused`, `mode`, `receipt_id`, `drain_estimate`), given per endpoint by `toEarlier`.
 */
@Injectable()
export class ResponseEnvelope {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  wrap<T extends object>(form: EnvelopeForm, data: T, toEarlier: (data: T) => object = (d) => d): LaterForm<T> | EarlierForm<object> {
    return form === 'status' ? { status: 'ok', data: toEarlier(data) } : { success: true, data };
  }

  /** Read before the command runs: a bad header must be refused before anything changes. */
  formOf(request: FastifyRequest): EnvelopeForm {
    const asked = request.headers[ENVELOPE_HEADER];
    if (asked === undefined) return this.config.daemon.envelope;
    if (typeof asked === 'string' && (ENVELOPE_FORMS as readonly string[]).includes(asked)) return asked as EnvelopeForm;
    throw validationError(ENVELOPE_HEADER, `X-Response-Envelope must be one of: ${ENVELOPE_FORMS.join(', ')}`);
  }
}

/** Drops the named keys (the later form's additions). */
export function without<T extends object, K extends keyof T>(...keys: K[]): (data: T) => Omit<T, K> {
  return (data) => {
    const copy = { ...data };
    for (const key of keys) delete copy[key];
    return copy;
  };
}
