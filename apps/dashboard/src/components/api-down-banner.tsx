import { useEffect, useSyncExternalStore } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { apiHealth, probeApi } from '../api/client';
import { UNREACHABLE_MESSAGE } from '../api/api-error';

/** How often the banner asks whether the API answers again. */
export const API_PROBE_MS = 5000;

/**
 * A banner while the API does not answer (network error, proxy error page):
 * never a blank page. It probes the API meanwhile and, once it answers,
 * reads again what the page shows (queries have given up retrying by then).
 */
export function ApiDownBanner({ force = false }: { force?: boolean }) {
  const down = useSyncExternalStore(apiHealth.subscribe, apiHealth.isDown);
  const client = useQueryClient();
  useEffect(() => {
    if (!down && !force) return;
    const timer = setInterval(() => {
      void probeApi().then((up) => {
        if (up) void client.refetchQueries({ type: 'active' });
      });
    }, API_PROBE_MS);
    return () => clearInterval(timer);
  }, [down, force, client]);
  if (!down && !force) return null;
  return (
    <div className="banner banner-error" role="alert">
      {UNREACHABLE_MESSAGE}
    </div>
  );
}
