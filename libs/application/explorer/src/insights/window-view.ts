import type { TimeWindow } from '../periods/periods';
import type { WindowView } from './insights.query';

/** A window as `meta` reports it: ISO instants, end exclusive. */
export function windowView(window: TimeWindow): WindowView {
  return { start: window.start.toISOString(), end: window.end.toISOString() };
}
