/** Recache queue priorities, in the order the scheduler drains them. */
export const PRIORITIES = ['high', 'normal', 'autorecache'] as const;
export type Priority = (typeof PRIORITIES)[number];

/** Priorities a caller may request on recache; `autorecache` is created by bot hits only. */
export const REQUESTABLE_PRIORITIES = ['high', 'normal'] as const;
export type RequestablePriority = (typeof REQUESTABLE_PRIORITIES)[number];

export function isPriority(value: unknown): value is Priority {
  return typeof value === 'string' && (PRIORITIES as readonly string[]).includes(value);
}

/** Rank for comparisons: lower drains first. */
export function priorityRank(priority: Priority): number {
  return PRIORITIES.indexOf(priority);
}
