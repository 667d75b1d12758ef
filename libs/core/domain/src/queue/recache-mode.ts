/** `render` forces a browser render, `bypass` an origin fetch. */
export const RECACHE_MODES = ['render', 'bypass'] as const;
export type RecacheMode = (typeof RECACHE_MODES)[number];

export function isRecacheMode(value: unknown): value is RecacheMode {
  return typeof value === 'string' && (RECACHE_MODES as readonly string[]).includes(value);
}
