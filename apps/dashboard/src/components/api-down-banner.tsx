import { useSyncExternalStore } from 'react';
import { apiHealth } from '../api/client';
import { UNREACHABLE_MESSAGE } from '../api/api-error';

/** A banner while the API does not answer (network error, proxy error page): never a blank page. */
export function ApiDownBanner({ force = false }: { force?: boolean }) {
  const down = useSyncExternalStore(apiHealth.subscribe, apiHealth.isDown);
  if (!down && !force) return null;
  return (
    <div className="banner banner-error" role="alert">
      {UNREACHABLE_MESSAGE}
    </div>
  );
}
