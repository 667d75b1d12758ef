import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/endpoints';

/** The SEO insight for a period: issue counts now, changes in the window (one call, shared by the page's reports). */
export function useSeoInsights(website: string, period: string) {
  return useQuery({ queryKey: ['seo-insights', website, period], queryFn: ({ signal }) => api.insights.seo(website, { period }, signal) });
}
