/** The signals contentsignals.org defines: may the content be used for search, as input to an AI answer, to train AI. */
export const CONTENT_SIGNALS = ['search', 'ai-input', 'ai-train'] as const;
export type ContentSignal = (typeof CONTENT_SIGNALS)[number];

/** Why a `Content-Signal` value is refused, or the value written the one way we send it. */
export type ContentSignalParse = { readonly ok: true; readonly value: string } | { readonly ok: false; readonly reason: string };

/**
 * A `Content-Signal` value in contentsignals.org syntax: comma-separated
 * `signal=yes|no` pairs, each signal (`search`, `ai-input`, `ai-train`) at
 * most once, at least one. Whitespace around items and `=` is tolerated and
 * letters may be upper-case; the value is answered lower-case as
 * `search=yes, ai-input=yes, ai-train=no` (the order given).
 */
export function parseContentSignal(text: string): ContentSignalParse {
  const items = text.split(',').map((item) => item.trim());
  if (items.length === 0 || items.every((item) => item === '')) return { ok: false, reason: 'must name at least one signal, e.g. "search=yes, ai-input=yes, ai-train=no"' };
  const seen = new Set<string>();
  const pairs: string[] = [];
  for (const item of items) {
    const match = /^([a-z-]+)\s*=\s*(yes|no)$/i.exec(item);
    if (!match) return { ok: false, reason: `${JSON.stringify(item.slice(0, 40))} is not signal=yes or signal=no` };
    const signal = match[1]!.toLowerCase();
    if (!(CONTENT_SIGNALS as readonly string[]).includes(signal)) return { ok: false, reason: `unknown signal "${signal.slice(0, 40)}" (known: ${CONTENT_SIGNALS.join(', ')})` };
    if (seen.has(signal)) return { ok: false, reason: `signal "${signal}" is given twice` };
    seen.add(signal);
    pairs.push(`${signal}=${match[2]!.toLowerCase()}`);
  }
  return { ok: true, value: pairs.join(', ') };
}
