import { formatDateTime, utcTitle } from '../lib/format';

/** An instant in the viewer's time zone, UTC on hover. */
export function Time({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={utcTitle(iso)}>
      {formatDateTime(iso)}
    </time>
  );
}
