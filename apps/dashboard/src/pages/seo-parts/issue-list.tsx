import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../api/endpoints';
import type { SeoIssueCount } from '../../api/types';
import { useDiscovery } from '../../api/use-discovery';
import { formatInteger } from '../../lib/format';
import { exampleUrls, issueCatalog, issuesPresent, pagesWithIssuePath, seoPagePath, SEVERITY_TEXT } from '../../lib/seo';
import { pathOf } from '../ai-agents-parts/use-ai-crawlers';

/**
 * The issues pages have now: code, what it means (the API's words, from
 * discovery), severity, pages affected, an example (the most requested page
 * with the issue, among the account's largest page of rows) and the
 * `pages` explorer filtered on the issue.
 */
export function IssueList({ website, period, issues }: { website: string; period: string; issues: SeoIssueCount[] }) {
  const discovery = useDiscovery(website);
  const catalog = issueCatalog(discovery.data);
  const present = issuesPresent(issues);
  const perPage = discovery.data?.limits.perPageMax ?? 100;
  // One query for every example: a query per issue would queue fifteen statements on the account's admission.
  const examples = useQuery({
    queryKey: ['seo-issue-examples', website, period, perPage],
    queryFn: ({ signal }) => api.explorer.query(website, 'pages', { period, columns: ['url', 'issues', 'requests'], sort: 'requests', sortDir: 'desc', perPage }, signal),
    enabled: present.length > 0 && !!discovery.data,
    select: (answer) => exampleUrls(answer.data),
  });
  const absent = issues.filter((i) => i.pages === 0).map((i) => i.code);
  return (
    <section aria-labelledby="seo-issues-heading">
      <h2 id="seo-issues-heading">Issues</h2>
      {present.length === 0 ? (
        <p>No page has an issue now.</p>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Issues pages have now, most severe first, with the pages affected</caption>
            <thead>
              <tr>
                <th scope="col">Issue</th>
                <th scope="col">Severity</th>
                <th scope="col" className="num">
                  Pages
                </th>
                <th scope="col">Example</th>
              </tr>
            </thead>
            <tbody>
              {present.map((issue) => {
                const example = examples.data?.get(issue.code);
                return (
                  <tr key={issue.code}>
                    <th scope="row" className="issue-cell">
                      <code>{issue.code}</code>
                      {catalog.get(issue.code) ? <span className="muted small block">{catalog.get(issue.code)!.explanation}</span> : null}
                    </th>
                    <td>
                      <span className={`severity severity-${issue.severity}`}>{SEVERITY_TEXT[issue.severity]}</span>
                    </td>
                    <td className="num">
                      <Link to={pagesWithIssuePath(website, period, issue.code)} aria-label={`${formatInteger(issue.pages)} pages with ${issue.code} in the explorer`}>
                        {formatInteger(issue.pages)}
                      </Link>
                    </td>
                    <td className="url">
                      {example ? (
                        <Link to={seoPagePath(website, example, period)} title={example}>
                          {pathOf(example)}
                        </Link>
                      ) : (
                        <span className="muted">{examples.isPending ? '…' : '–'}</span>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {absent.length ? <p className="muted small">No page has {absent.join(', ')}.</p> : null}
    </section>
  );
}
