/**
 * Which control shows an API error: the error's `field` (`filters[0].val`,
 * `columns[1]`, `perPage`, `urls[3]`…) goes to the most specific control the
 * form has: the field itself, else its parents (`filters[0].val` ->
 * `filters[0]` -> `filters`). undefined: no control claims it, so the form
 * shows it at its top.
 */
export function errorTarget(field: string | undefined, controls: readonly string[]): string | undefined {
  if (!field) return undefined;
  for (const candidate of fieldAncestry(field)) if (controls.includes(candidate)) return candidate;
  return undefined;
}

/** `filters[0].val` -> [`filters[0].val`, `filters[0]`, `filters`]. */
export function fieldAncestry(field: string): string[] {
  const chain = [field];
  let rest = field;
  for (;;) {
    const cut = Math.max(rest.lastIndexOf('.'), rest.lastIndexOf('['));
    if (cut <= 0) break;
    rest = rest.slice(0, cut);
    chain.push(rest);
  }
  return chain;
}

/** The index in `urls[3]`-like fields, for per-line errors. */
export function indexOf(field: string | undefined, name: string): number | undefined {
  const match = field ? new RegExp(`^${name}\\[(\\d+)\\]`).exec(field) : null;
  return match ? Number(match[1]) : undefined;
}

/**
 * An API message without the parameter name it starts with (`urls[1] is not
 * an absolute http(s) URL` -> `is not an absolute http(s) URL`), for a page
 * that already says which line or control it is about in people's words.
 */
export function withoutFieldName(message: string, field: string | undefined): string {
  return field && message.startsWith(`${field} `) ? message.slice(field.length + 1) : message;
}
