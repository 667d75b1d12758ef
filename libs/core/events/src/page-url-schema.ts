/**
 * A page URL as the service records it: absolute http(s), serialised as
 * Node's `URL#href` (the WHATWG URL standard) does. Not `format: uri`: that
 * serialisation keeps characters RFC 3986 leaves out (`|`, `^`, `[`, `{` in
 * a query …) which real pages use, and a strict validator would reject them.
 */
export const pageUrlSchema = {
  type: 'string',
  pattern: '^https?://',
  description: 'absolute http(s) URL as the WHATWG URL standard serialises it (may hold characters RFC 3986 leaves out, such as | or {)',
} as const;
