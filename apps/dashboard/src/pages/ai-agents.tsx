import { useParams, useSearchParams } from 'react-router';
import { PeriodPicker } from '../components/period-picker';
import { Time } from '../components/time';
import { OVERVIEW_PRESETS } from '../lib/periods';
import { AiCrawlersTable } from './ai-agents-parts/ai-crawlers-table';
import { SpoofedTraffic } from './ai-agents-parts/spoofed-traffic';
import { useAiCrawlers } from './ai-agents-parts/use-ai-crawlers';

const DEFAULT_PERIOD = '7d';

/** AI agents for a period: what the site's robots.txt says of each and what each crawled anyway, and the bots whose claim was proven false. The period is the URL's. */
export default function AiAgentsPage() {
  const { website = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const period = params.get('period') || DEFAULT_PERIOD;
  const crawlers = useAiCrawlers(website, period);
  const refusedPeriod = crawlers.error?.field === 'period';
  return (
    <>
      <h1>AI agents</h1>
      <div className="row">
        <PeriodPicker id="period" label="Period" presets={OVERVIEW_PRESETS} value={period} onChange={(p) => setParams(p ? { period: p } : {})} invalid={refusedPeriod || undefined} />
        {crawlers.data ? (
          <p className="muted small">
            <Time iso={crawlers.data.meta.window.start} /> to <Time iso={crawlers.data.meta.window.end} />
          </p>
        ) : null}
      </div>
      {crawlers.error ? (
        <p className="form-error" role="alert">
          {crawlers.error.message}
        </p>
      ) : null}
      {crawlers.isPending ? (
        <p className="page-status" role="status">
          Loading…
        </p>
      ) : null}
      {crawlers.data ? (
        <>
          <AiCrawlersTable website={website} period={period} data={crawlers.data.data} />
          <SpoofedTraffic website={website} period={period} spoofed={crawlers.data.data.spoofed} />
        </>
      ) : null}
    </>
  );
}
