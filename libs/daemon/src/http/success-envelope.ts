import type { EnvelopeForm } from '@bpc/config';

/** The later form `{success: true, data}` or the earlier `{status: "ok", data}`. */
export function successEnvelope<T>(data: T, form: EnvelopeForm): { success: true; data: T } | { status: 'ok'; data: T } {
  return form === 'status' ? { status: 'ok', data } : { success: true, data };
}
