import type { SeoInsightsResult } from '../../api/types';
import { TimeChart } from '../../components/time-chart';
import { formatInteger } from '../../lib/format';
import { changesSeries, pagesWithIssuesSeries, SEVERITIES, SEVERITY_TEXT } from '../../lib/seo';

const countFormat = (v: number) => formatInteger(v);

/** Pages with issues of each severity now and as of each day of the window (the trend), the changes of each severity in the window and per day. */
export function SeveritySummary({ insights }: { insights: SeoInsightsResult }) {
  const { data } = insights;
  return (
    <>
      <section aria-label="Issues by severity" className="cards">
        <div className="card">
          <div className="muted small">Pages with facts</div>
          <div className="kpi-value">{formatInteger(data.pages)}</div>
          <span className="muted small">URL × dimension, rendered</span>
        </div>
        {SEVERITIES.map((severity) => (
          <div className="card" key={severity}>
            <div className="muted small">{SEVERITY_TEXT[severity]} issues</div>
            <div className="kpi-value">{formatInteger(data.pagesWithIssues[severity])} pages</div>
            <span className="muted small">{formatInteger(data.changes[severity])} {severity} changes in the period</span>
          </div>
        ))}
      </section>
      <div className="seo-trend grid-2">
        <TimeChart title="Pages with issues at each day's end, by severity" series={pagesWithIssuesSeries(insights)} format={countFormat} height={200} integer />
        <TimeChart title="Changes per day, by severity" series={changesSeries(insights)} format={countFormat} height={200} integer />
      </div>
    </>
  );
}
