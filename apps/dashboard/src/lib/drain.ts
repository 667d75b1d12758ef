import type { DrainEstimate } from '../api/types';
import { formatNumber } from './format';

/**
 * A queue's drain estimate in words: an estimate, never a promise. The API
 * derives it from the recent completion rate (a paused host's remaining
 * pause included); null seconds means there is no rate to go by yet.
 */
export function drainEstimateText(estimate: DrainEstimate | undefined, waiting: number): string {
  if (waiting === 0) return 'nothing waiting';
  if (!estimate || estimate.seconds === null) return 'unknown';
  const minutes = Math.max(1, Math.round(estimate.seconds / 60));
  if (minutes < 120) return `about ${minutes} min`;
  const hours = Math.round(minutes / 6) / 10;
  return `about ${formatNumber(hours)} h`;
}

/** The rate the estimate comes from, for the hover title. */
export function drainRateText(estimate: DrainEstimate | undefined): string {
  if (!estimate) return 'No estimate from the service.';
  return `Estimated from the recent completion rate: ${formatNumber(estimate.completedPerMinute)} entries a minute.`;
}
