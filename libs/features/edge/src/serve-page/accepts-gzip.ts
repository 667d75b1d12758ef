/** True when `Accept-Encoding` accepts gzip: an explicit gzip entry without `q=0`, or else `*` without `q=0`. */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  // An explicit gzip (or x-gzip) entry decides, `*` only when there is none (RFC 9110 §12.5.3): `gzip;q=0, *` refuses gzip.
  let wildcard: boolean | undefined;
  for (const part of header.split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const name = coding.trim();
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const accepted = !q || Number(q.slice(2)) > 0;
    if (name !== '*') return accepted;
    wildcard ??= accepted;
  }
  return wildcard ?? false;
}
