import { buildPagesSql } from '../pages/pages-sql';
import { isPagesDef } from '../pages/site-explorer';
import { isRendersDef } from '../renders/renders-catalog';
import { buildRendersSql } from '../renders/renders-sql';
import type { ResolvedQuery } from '../resolve-query/resolve-query';
import { buildExplorerSql, ExplorerSql } from './explorer-sql';

/** The statements of any resolved query: an explorer's over its website's rows, render history's and SEO health's over its website's host. */
export function buildQuerySql(query: ResolvedQuery, websiteId: string): ExplorerSql {
  const { explorer } = query;
  if (isRendersDef(explorer)) return buildRendersSql({ ...query, explorer });
  if (isPagesDef(explorer)) return buildPagesSql({ ...query, explorer }, websiteId);
  return buildExplorerSql(query, websiteId);
}
