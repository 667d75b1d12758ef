import type { BenchSuite } from './bench-row';
import { daemonBench } from './daemon.bench';
import { clusterBench } from './cluster.bench';
import { dashboardBench } from './dashboard.bench';
import { edgeBench } from './edge.bench';
import { eventLogBench } from './event-log.bench';
import { explorerBench } from './explorer.bench';
import { explorerFairnessBench } from './explorer-fairness.bench';
import { mcpBench } from './mcp.bench';
import { objectStoreBench } from './object-store.bench';
import { pagesQueryBench } from './pages-query.bench';
import { exportsBench } from './exports.bench';
import { queueStoreBench } from './queue-store.bench';
import { renderBench } from './render.bench';
import { rendersBench } from './renders.bench';
import { rendersQueryBench } from './renders-query.bench';
import { sitemapsBench } from './sitemaps.bench';
import { startupBench } from './startup.bench';

/** Every suite `npm run bench` runs, in order; `npm run bench -- <name>` runs one. */
export const suites: readonly BenchSuite[] = [eventLogBench, queueStoreBench, startupBench, daemonBench, explorerBench, explorerFairnessBench, edgeBench, exportsBench, renderBench, rendersBench, dashboardBench, mcpBench, rendersQueryBench, pagesQueryBench, sitemapsBench, objectStoreBench, clusterBench];
