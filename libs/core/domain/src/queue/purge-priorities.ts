import { Priority } from './priority';

/** What an omitted or empty `priorities` means: an empty array is not "purge nothing". */
export const DEFAULT_PURGE_PRIORITIES: readonly Priority[] = ['high', 'normal'];

/**
 * The priorities a purge removes: the default when none are named,
 * otherwise the named ones once each, in drain order (`autorecache` only when named).
 */
export function resolvePurgePriorities(requested: readonly Priority[] | undefined): Priority[] {
  if (!requested || requested.length === 0) return [...DEFAULT_PURGE_PRIORITIES];
  const named = new Set(requested);
  return (['high', 'normal', 'autorecache'] as const).filter((p) => named.has(p));
}
