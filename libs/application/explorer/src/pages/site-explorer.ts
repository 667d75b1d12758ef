import type { AppConfig } from '@bpc/config';
import { ExplorerDef, findExplorer, PAGE_CHANGES_KEY, PAGES_KEY } from '../catalog/explorer-catalog';
import { RenderDimension, rendersCatalogOf } from '../renders/renders-catalog';

/** SEO health's explorers read rows keyed by host: bound to the website's host and its dimensions before a query runs. */
export interface PagesDef extends ExplorerDef {
  readonly key: typeof PAGES_KEY | typeof PAGE_CHANGES_KEY;
  readonly hostId: number;
  readonly dimensions: readonly RenderDimension[];
}

export function isPagesDef(explorer: ExplorerDef): explorer is PagesDef {
  return (explorer.key === PAGES_KEY || explorer.key === PAGE_CHANGES_KEY) && 'hostId' in explorer;
}

/**
 * A Data Explorer explorer as one website queries it: the catalog's, and for
 * `pages` and `page_changes` bound to the website's host (a website is one
 * host, as for render history). Undefined for an unknown key; an unknown
 * website is NOT_FOUND.
 */
export function siteExplorerOf(config: Pick<AppConfig, 'websites' | 'hosts'>, websiteId: string, key: string): ExplorerDef | undefined {
  const explorer = findExplorer(key);
  if (explorer?.key !== PAGES_KEY && explorer?.key !== PAGE_CHANGES_KEY) return explorer;
  const { hostId, dimensions } = rendersCatalogOf(config, websiteId);
  const bound: PagesDef = { ...explorer, key: explorer.key, hostId, dimensions };
  return bound;
}
