/** How long a scrape waits for a gauge's live read before answering with the gauge's last value. */
export const SCRAPE_READ_TIMEOUT_MS = 1_000;

/**
 * A gauge `collect` for live state read from a store at scrape time that
 * never fails or holds up the scrape (one throwing collect turns all of
 * `/metrics` into a 500, exactly during the outage it should show): a read
 * that fails leaves the gauge at its last value, and a read slower than
 * `timeoutMs` is answered with the last value too, then applied when it ends,
 * for the next scrape. At most one read runs at a time, so scrapes against a
 * hung store do not pile reads up on it.
 */
export function scrapeSafeCollect<T>(read: () => Promise<T>, apply: (value: T) => void, timeoutMs = SCRAPE_READ_TIMEOUT_MS): () => Promise<void> {
  let reading: Promise<void> | undefined;
  return async () => {
    reading ??= Promise.resolve()
      .then(read)
      .then(apply)
      .catch(() => undefined)
      .finally(() => {
        reading = undefined;
      });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([reading, timedOut]);
    clearTimeout(timer);
  };
}
