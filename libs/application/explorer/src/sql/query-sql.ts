import { isRendersDef } from '../renders/renders-catalog';
import { buildRendersSql } from '../renders/renders-sql';
import type { ResolvedQuery } from '../resolve-query/resolve-query';
import { buildExplorerSql, ExplorerSql } from './explorer-sql';

/** The statements of any resolved query: an explorer's over its website's rows, render history's over its website's host. */
export function buildQuerySql(query: ResolvedQuery, websiteId: string): ExplorerSql {
  const { explorer } = query;
  return isRendersDef(explorer) ? buildRendersSql({ ...query, explorer }) : buildExplorerSql(query, websiteId);
}
