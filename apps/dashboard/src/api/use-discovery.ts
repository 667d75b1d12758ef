import { useQuery } from '@tanstack/react-query';
import { api } from './endpoints';

/** Discovery changes only with a deployment: read once per website and kept for ten minutes. */
export function useDiscovery(website: string) {
  return useQuery({ queryKey: ['discovery', website], queryFn: ({ signal }) => api.explorer.discover(website, signal), staleTime: 10 * 60_000 });
}
