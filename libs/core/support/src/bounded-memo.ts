/**
 * Remembers the results of a pure function of a string, for at most
 * `capacity` keys (the oldest forgotten first) and only for keys up to
 * `maxKeyLength`: bots repeat the same URLs and User-Agents, so the edge
 * parses and matches each once instead of once per request (and decodes each
 * stored cache entry once while it stays the same). Results are shared
 * between callers: they must not be mutated.
 */
export class BoundedMemo<V> {
  private readonly values = new Map<string, V>();

  constructor(
    private readonly compute: (key: string) => V,
    private readonly capacity: number,
    private readonly maxKeyLength: number,
  ) {}

  get(key: string): V {
    const known = this.values.get(key);
    if (known !== undefined || this.values.has(key)) return known as V;
    const value = this.compute(key);
    if (key.length <= this.maxKeyLength) {
      if (this.values.size >= this.capacity) this.values.delete(this.values.keys().next().value!);
      this.values.set(key, value);
    }
    return value;
  }
}
