export interface UntilOptions {
  /** Give up (throw) after this long; 20 s by default. */
  readonly timeoutMs?: number;
  /** Pause between two probes; 50 ms by default. */
  readonly intervalMs?: number;
  /** What is awaited, for the timeout's message (a function is called only then); the probe's source by default. */
  readonly what?: string | (() => string);
}

/** A function's source on one line, shortened: names what was awaited when the caller did not. */
const sourceOf = (fn: (...args: never[]) => unknown): string => {
  const text = fn.toString().replace(/\s+/g, ' ');
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/**
 * Polls until a condition holds, and throws once `timeoutMs` has passed
 * without it (the message names what was awaited and, with `accept`, the
 * last value seen).
 *
 * - `until(condition, options?)`: `condition` is true.
 * - `until(probe, accept, options?)`: `accept` takes `probe`'s value; that value is returned.
 */
export function until(condition: () => boolean | Promise<boolean>, options?: UntilOptions): Promise<void>;
export function until<T>(probe: () => T | Promise<T>, accept: (value: T) => boolean, options?: UntilOptions): Promise<T>;
export async function until<T>(probe: () => T | Promise<T>, acceptOrOptions?: ((value: T) => boolean) | UntilOptions, maybeOptions?: UntilOptions): Promise<T | void> {
  const accept = typeof acceptOrOptions === 'function' ? acceptOrOptions : undefined;
  const options = (typeof acceptOrOptions === 'function' ? maybeOptions : acceptOrOptions) ?? {};
  const { timeoutMs = 20_000, intervalMs = 50, what } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept ? accept(value) : Boolean(value)) return accept ? value : undefined;
    if (Date.now() > deadline) {
      const awaited = typeof what === 'function' ? what() : (what ?? (accept ? `${sourceOf(accept)} of ${sourceOf(probe)}` : sourceOf(probe)));
      const last = accept ? ` (last: ${JSON.stringify(value)?.slice(0, 500)})` : '';
      throw new Error(`${awaited}: not reached within ${timeoutMs} ms${last}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}
