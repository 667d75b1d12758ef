/**
 * Values of Redis hash fields kept in this process while Redis reports every
 * change to their keys (client-side caching, see `RedisKeyTracking`), at most
 * `capacity` fields; beyond it the first kept are forgotten first (the
 * earliest key's earliest field: first in, first out, reads refresh nothing).
 *
 * A read that was in flight when a key changed may carry the old value, so a
 * reader takes a `ticket()` before it asks Redis and `set` keeps the answer
 * only if nothing was dropped since. One version for all keys rather than one
 * per key: a change elsewhere only costs that reader's answer a re-read later.
 * Nothing is kept while changes are not being followed (`follow(false)`).
 */
export class LocalEntries<V> {
  private readonly keys = new Map<string, Map<string, V>>();
  private count = 0;
  private version = 0;
  private following = false;

  constructor(private readonly capacity: number) {}

  get(key: string, field: string): V | undefined {
    return this.keys.get(key)?.get(field);
  }

  /** What a reader passes to `set` with its answer; undefined while changes are not followed (nothing read then is kept). */
  ticket(): number | undefined {
    return this.following && this.capacity > 0 ? this.version : undefined;
  }

  set(key: string, field: string, value: V, ticket: number | undefined): void {
    if (ticket !== this.version || !this.following) return;
    let fields = this.keys.get(key);
    if (!fields) {
      fields = new Map();
      this.keys.set(key, fields);
    }
    if (!fields.has(field)) this.count += 1;
    fields.set(field, value);
    while (this.count > this.capacity) this.forgetOldest();
  }

  /** The key changed: its fields are forgotten, and answers read before are not kept. */
  drop(key: string): void {
    this.version += 1;
    const fields = this.keys.get(key);
    if (!fields) return;
    this.count -= fields.size;
    this.keys.delete(key);
  }

  /** Every key changed (a flush). */
  dropAll(): void {
    this.version += 1;
    this.keys.clear();
    this.count = 0;
  }

  /** Changes are (again, or no longer) being followed: whatever is known from before is void either way. */
  follow(following: boolean): void {
    this.following = following;
    this.dropAll();
  }

  /** Fields kept. */
  get size(): number {
    return this.count;
  }

  private forgetOldest(): void {
    const [key, fields] = this.keys.entries().next().value!;
    fields.delete(fields.keys().next().value!);
    this.count -= 1;
    if (fields.size === 0) this.keys.delete(key);
  }
}
