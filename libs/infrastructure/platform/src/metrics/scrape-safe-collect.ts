import { settlesWithin } from '../lifecycle/shutdown-bounds';

/** How long a scrape waits for a gauge's live read before answering with the gauge's last value. */
export const SCRAPE_READ_TIMEOUT_MS = 1_000;
/** A read still running after this long is given up on (a client that never answers): the next scrape starts another. */
const ABANDON_READ_AFTER_MS = 30_000;

/**
 * A gauge `collect` for live state read from a store at scrape time that
 * never fails or holds up the scrape (one throwing collect turns all of
 * `/metrics` into a 500, exactly during the outage it should show): a read
 * that fails leaves the gauge at its last value, and a read slower than
 * `timeoutMs` is answered with the last value too, then applied when it ends,
 * for the next scrape. One read runs at a time, so scrapes against a hung
 * store do not pile reads up on it; one hung for 30 s is given up on.
 */
export function scrapeSafeCollect<T>(read: () => Promise<T>, apply: (value: T) => void, timeoutMs = SCRAPE_READ_TIMEOUT_MS): () => Promise<void> {
  let reading: { readonly done: Promise<void>; readonly since: number } | undefined;
  return async () => {
    if (reading === undefined || Date.now() - reading.since > ABANDON_READ_AFTER_MS) {
      const current: { done: Promise<void>; since: number } = { since: Date.now(), done: Promise.resolve() };
      current.done = Promise.resolve()
        .then(read)
        // A read given up on does not overwrite what a later one found.
        .then((value) => {
          if (reading === current) apply(value);
        })
        .catch(() => undefined)
        .finally(() => {
          if (reading === current) reading = undefined;
        });
      reading = current;
    }
    await settlesWithin(reading.done, timeoutMs);
  };
}
