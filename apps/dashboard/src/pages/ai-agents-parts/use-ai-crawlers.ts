import { useQuery } from '@tanstack/react-query';
import { api } from '../../api/endpoints';

/** The ai-crawlers insight for a period: one call, shared by the page's reports (same query key). */
export function useAiCrawlers(website: string, period: string) {
  return useQuery({ queryKey: ['ai-crawlers', website, period], queryFn: ({ signal }) => api.insights.aiCrawlers(website, { period }, signal) });
}

/** The path part of a page URL, for a compact table (the full URL stays in the link's title). */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}
