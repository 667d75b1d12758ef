import type { ApiError } from '../api/api-error';
import { errorTarget } from '../lib/error-fields';

/** The message of an API error, shown at the control whose field it names (`id` of the message for aria-describedby). */
export function FieldError({ error, control, controls, id }: { error: ApiError | null | undefined; control: string; controls: readonly string[]; id?: string }) {
  if (!error || errorTarget(error.field, controls) !== control) return null;
  return (
    <p className="field-error" role="alert" id={id}>
      {error.message}
    </p>
  );
}

/** An error no control claims: shown at the top of the form. */
export function FormError({ error, controls }: { error: ApiError | null | undefined; controls: readonly string[] }) {
  if (!error || errorTarget(error.field, controls) !== undefined) return null;
  return (
    <p className="form-error" role="alert">
      {error.message}
    </p>
  );
}
