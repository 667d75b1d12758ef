import { createHash, randomBytes } from 'node:crypto';
import type { CacheEntry, CacheKey, NewCacheEntry } from './cache-store.port';

/** Fresh at `now`: not yet expired. */
export function isFresh(entry: Pick<CacheEntry, 'expiresAt'>, now: number): boolean {
  return entry.expiresAt > now;
}

/**
 * Render-wins: a bypass never replaces a render still fresh when the bypass
 * was produced; anything else replaces what is there.
 */
export function putDecision(current: Pick<CacheEntry, 'kind' | 'expiresAt'> | undefined, incoming: Pick<NewCacheEntry, 'kind' | 'createdAt'>): 'store' | 'render-wins' {
  if (incoming.kind === 'bypass' && current?.kind === 'render' && isFresh(current, incoming.createdAt)) return 'render-wins';
  return 'store';
}

/** A 3xx with a Location is a complete answer without a body. */
export function isRedirect(entry: Pick<NewCacheEntry, 'statusCode' | 'headers'>): boolean {
  return entry.statusCode >= 300 && entry.statusCode < 400 && Boolean(entry.headers.location);
}

function invalid(reason: string): Error {
  return new Error(`invalid cache store call: ${reason}`);
}

function assertPositiveInt(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 1) throw invalid(`${name} must be a positive integer, got ${String(value)}`);
}

export function assertKey(hostId: number, url: string, dimensionId: number): void {
  assertPositiveInt('hostId', hostId);
  assertPositiveInt('dimensionId', dimensionId);
  if (typeof url !== 'string' || url.length === 0) throw invalid('url must be a non-empty string');
}

/** Rejects a malformed entry or an empty body (unless a redirect) before anything is written. */
export function assertStorable(entry: NewCacheEntry, body: Buffer): void {
  assertKey(entry.hostId, entry.url, entry.dimensionId);
  if (entry.kind !== 'render' && entry.kind !== 'bypass') throw invalid(`unknown kind ${JSON.stringify(entry.kind)}`);
  if (!Number.isInteger(entry.statusCode) || entry.statusCode < 100 || entry.statusCode > 599) throw invalid(`bad statusCode ${entry.statusCode}`);
  for (const name of ['createdAt', 'expiresAt', 'durationMs'] as const) {
    if (!Number.isFinite(entry[name])) throw invalid(`${name} must be a finite number`);
  }
  if (body.length === 0 && !isRedirect(entry)) throw invalid('empty body (only a redirect with a location may have none)');
}

/** The metadata field of a key within its host: `<dimensionId>|<url>` (URLs may contain `|`; the id may not). */
export function entryField(dimensionId: number, url: string): string {
  return `${dimensionId}|${url}`;
}

export function parseEntryField(field: string): { dimensionId: number; url: string } {
  const bar = field.indexOf('|');
  return { dimensionId: Number(field.slice(0, bar)), url: field.slice(bar + 1) };
}

/** Distinct URL × dimension fields of an invalidate call. */
export function invalidationFields(urls: readonly string[], dimensionIds: readonly number[]): string[] {
  const fields = new Set<string>();
  for (const url of urls) for (const dimensionId of dimensionIds) fields.add(entryField(dimensionId, url));
  return [...fields];
}

/**
 * A new, unique body path for a key: `<hostId>/<2 hex>/<sha256 of the key>.<createdAt>.<random>`,
 * spread over 256 sub-directories per host so no directory grows huge.
 * Unique per put, so the old body stays readable while a new one is written.
 */
export function newBodyBase(key: CacheKey, createdAt: number): string {
  const digest = createHash('sha256').update(entryField(key.dimensionId, key.url)).digest('hex');
  return `${key.hostId}/${digest.slice(0, 2)}/${digest}.${Math.trunc(createdAt)}.${randomBytes(4).toString('hex')}`;
}
