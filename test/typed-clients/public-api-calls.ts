import createClient from 'openapi-fetch';
import type { paths } from 'generated/public-api';
import { Answer, answer } from './answer';

export interface PublicApiTarget {
  readonly baseUrl: string;
  /** A manager's token on `website`, whose platform module is on. */
  readonly token: string;
  readonly website: string;
  /** A URL on the website's host. */
  readonly pageUrl: string;
}

/**
 * Calls every operation of the public API once through a client typed by
 * openapi-typescript from the committed document, as a customer's code would
 * (path parameters, query parameters, bodies and answers all checked by the
 * compiler), plus a few calls that must fail, and reports each answer.
 */
export async function callPublicApi({ baseUrl, token, website, pageUrl }: PublicApiTarget): Promise<Answer[]> {
  const client = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${token}` } });
  const answers: Answer[] = [];

  const discoveryPath = '/api/websites/{website}/data-explorer';
  const discovery = await client.GET(discoveryPath, { params: { path: { website } } });
  answers.push(answer('get', discoveryPath, discovery));
  const anonymous = await createClient<paths>({ baseUrl }).GET(discoveryPath, { params: { path: { website } } });
  answers.push(answer('get', discoveryPath, anonymous, anonymous.error?.code));

  const queryPath = '/api/websites/{website}/data-explorer/{explorerKey}/query';
  const query = await client.POST(queryPath, {
    params: { path: { website, explorerKey: 'events' } },
    body: { period: '7d', sortDir: 'asc', filters: [{ field: 'url', op: 'contains', val: 'example' }, { field: 'status_code', op: 'eq', val: 200 }] },
  });
  answers.push(answer('post', queryPath, query));
  const refused = await client.POST(queryPath, { params: { path: { website, explorerKey: 'events' } }, body: { perPage: 501 } });
  answers.push(answer('post', queryPath, refused, refused.error && `${refused.error.code} ${refused.error.field}`));

  const summaryPath = '/api/websites/{website}/insights/summary';
  const summary = await client.POST(summaryPath, { params: { path: { website } }, body: { period: '7d', filters: [{ field: 'bot_name', op: 'equals', val: 'Googlebot' }] } });
  const figures = summary.data?.data.current;
  answers.push(answer('post', summaryPath, summary, figures && (figures.requests < 0 || (figures.hitRate ?? 0) > 1) ? 'figures out of range' : undefined));
  const timeseriesPath = '/api/websites/{website}/insights/timeseries';
  const series = await client.POST(timeseriesPath, { params: { path: { website } }, body: { metric: 'requests', period: '7d', compPeriod: '7d', interval: 'day', splitBy: 'bot_family' } });
  answers.push(answer('post', timeseriesPath, series, series.data && series.data.meta.interval !== 'day' ? `interval ${series.data.meta.interval}` : undefined));
  const hourly = await client.POST(timeseriesPath, { params: { path: { website } }, body: { metric: 'requests', period: '90d', interval: 'hour' } });
  answers.push(answer('post', timeseriesPath, hourly, hourly.error && `${hourly.error.code} ${hourly.error.field}`));
  const categoriesPath = '/api/websites/{website}/insights/bot-categories';
  const categories = await client.POST(categoriesPath, { params: { path: { website } }, body: { period: '7d', filters: [{ field: 'bot_category', op: 'ne', val: 'other' }] } });
  const readers = categories.data?.data;
  answers.push(answer('post', categoriesPath, categories, readers && readers.categories.some((c) => c.share < 0 || c.share > 1 || c.requests > readers.requests) ? 'categories out of range' : undefined));
  const categoriesRefused = await client.POST(categoriesPath, { params: { path: { website } }, body: { filters: [{ field: 'verified', op: 'eq', val: 'maybe' }] } });
  answers.push(answer('post', categoriesPath, categoriesRefused, categoriesRefused.error && `${categoriesRefused.error.code} ${categoriesRefused.error.field}`));
  const seoPath = '/api/websites/{website}/insights/seo';
  const seo = await client.POST(seoPath, { params: { path: { website } }, body: { period: '24h' } });
  answers.push(answer('post', seoPath, seo, seo.data && seo.data.data.issues.some((issue) => issue.pages < 0) ? 'negative count' : undefined));
  const crawlersPath = '/api/websites/{website}/insights/ai-crawlers';
  const crawlers = await client.POST(crawlersPath, { params: { path: { website } }, body: { period: '7d' } });
  const crawled = crawlers.data?.data;
  answers.push(answer('post', crawlersPath, crawlers, crawled && (crawled.agents.length === 0 || crawled.summary.requests > crawled.agents.reduce((sum, a) => sum + a.requests, 0)) ? 'agents out of range' : undefined));
  const crawlersRefused = await client.POST(crawlersPath, { params: { path: { website } }, body: { hostname: 'elsewhere.example' } });
  answers.push(answer('post', crawlersPath, crawlersRefused, crawlersRefused.error && `${crawlersRefused.error.code} ${crawlersRefused.error.field}`));

  // Render history (its export completes within its wait, so the account's slot is free for the explorer export below).
  const rendersPath = '/api/websites/{website}/renders';
  const rendersDiscovery = await client.GET(rendersPath, { params: { path: { website } } });
  answers.push(answer('get', rendersPath, rendersDiscovery, rendersDiscovery.data && rendersDiscovery.data.key !== 'renders' ? `key ${rendersDiscovery.data.key}` : undefined));
  const rendersQueryPath = '/api/websites/{website}/renders/query';
  answers.push(answer('post', rendersQueryPath, await client.POST(rendersQueryPath, { params: { path: { website } }, body: { mode: 'reasons', period: '7d', filters: [{ field: 'outcome_class', op: 'ne', val: 'stored' }] } })));
  const rendersRefused = await client.POST(rendersQueryPath, { params: { path: { website } }, body: { filters: [{ field: 'outcome', val: 'exploded' }] } });
  answers.push(answer('post', rendersQueryPath, rendersRefused, rendersRefused.error && `${rendersRefused.error.code} ${rendersRefused.error.field}`));
  const rendersSeriesPath = '/api/websites/{website}/renders/timeseries';
  const rendersSeries = await client.POST(rendersSeriesPath, { params: { path: { website } }, body: { period: '7d', interval: 'day' } });
  answers.push(answer('post', rendersSeriesPath, rendersSeries, rendersSeries.data && rendersSeries.data.points.some((p) => p.renders < p.failed) ? 'failed above renders' : undefined));
  const rendersExportPath = '/api/websites/{website}/renders/export';
  const rendersExport = await client.POST(rendersExportPath, { params: { path: { website } }, body: { period: '7d', filename: 'typed-renders', waitSeconds: 30 } });
  answers.push(answer('post', rendersExportPath, rendersExport, rendersExport.data && rendersExport.data.status !== 'completed' ? `export ${rendersExport.data.status}` : undefined));

  const importPath = '/api/websites/{website}/search-performance/import';
  const imported = await client.POST(importPath, {
    params: { path: { website } },
    body: { format: 'pages_csv', date: '2026-11-01', content: `Top pages,Clicks,Impressions,CTR,Position\n${pageUrl},3,30,10%,2\n` },
  });
  answers.push(answer('post', importPath, imported));

  const recachePath = '/api/websites/{website}/cache/recache';
  const recache = await client.POST(recachePath, { params: { path: { website } }, body: { urls: [pageUrl], priority: 'high' } });
  answers.push(answer('post', recachePath, recache));
  const queuePath = '/api/websites/{website}/cache/queue';
  const queue = await client.GET(queuePath, { params: { path: { website } } });
  const drain = queue.data?.drainEstimate.high;
  const queueProblem = queue.data && queue.data.queues.high.total < 1 ? `high queue empty after a recache: ${JSON.stringify(queue.data)}` : drain && drain.seconds !== null && drain.seconds < 0 ? `negative drain estimate ${drain.seconds}` : undefined;
  answers.push(answer('get', queuePath, queue, queueProblem));
  const entriesPath = '/api/websites/{website}/cache/entries';
  const lookup = await client.GET(entriesPath, { params: { path: { website }, query: { url: pageUrl } } });
  answers.push(answer('get', entriesPath, lookup, lookup.data && lookup.data.entries.some((e) => e.hits < 0 || (e.cached && !e.renderedAt)) ? `odd lookup: ${JSON.stringify(lookup.data)}` : undefined));
  const elsewhere = await client.GET(entriesPath, { params: { path: { website }, query: { url: 'https://not-this-website.example.net/' } } });
  answers.push(answer('get', entriesPath, elsewhere, elsewhere.error && `${elsewhere.error.code} ${elsewhere.error.field}`));
  const entriesQueryPath = '/api/websites/{website}/cache/entries/query';
  const entryPage = await client.POST(entriesQueryPath, { params: { path: { website } }, body: { prefix: new URL('/', pageUrl).href, perPage: 10 } });
  answers.push(answer('post', entriesQueryPath, entryPage, entryPage.data && entryPage.data.meta.perPage !== 10 ? `perPage ${entryPage.data.meta.perPage}` : undefined));
  const badPattern = await client.POST(entriesQueryPath, { params: { path: { website } }, body: { pattern: '(?=x)' } });
  answers.push(answer('post', entriesQueryPath, badPattern, badPattern.error && `${badPattern.error.code} ${badPattern.error.field}`));
  const entriesInvalidatePath = '/api/websites/{website}/cache/entries/invalidate';
  const dryRun = await client.POST(entriesInvalidatePath, { params: { path: { website } }, body: { pattern: '^https?://[^/]+/never-cached-by-the-typed-client$', dryRun: true } });
  answers.push(answer('post', entriesInvalidatePath, dryRun, dryRun.data && dryRun.data.entriesInvalidated !== 0 ? 'a dry run invalidated entries' : undefined));
  const receiptPath = '/api/websites/{website}/cache/receipts/{receiptId}';
  const receiptId = recache.data?.receiptId ?? 'missing';
  const receipt = await client.GET(receiptPath, { params: { path: { website, receiptId }, query: { perPage: 10, state: 'queued' } } });
  answers.push(answer('get', receiptPath, receipt, receipt.data && receipt.data.totals.entries < 1 ? `receipt without entries: ${JSON.stringify(receipt.data)}` : undefined));
  const unknownReceipt = await client.GET(receiptPath, { params: { path: { website, receiptId: '00000000-0000-4000-8000-000000000000' } } });
  answers.push(answer('get', receiptPath, unknownReceipt, unknownReceipt.error?.code));
  const invalidatePath = '/api/websites/{website}/cache/invalidate';
  answers.push(answer('post', invalidatePath, await client.POST(invalidatePath, { params: { path: { website } }, body: { urls: [pageUrl] } })));
  // A sitemap the website may not read is refused before anything is fetched (the suite serves no sitemap).
  const sitemapPath = '/api/websites/{website}/cache/recache-sitemap';
  const sitemap = await client.POST(sitemapPath, { params: { path: { website } }, body: { sitemapUrl: 'https://elsewhere.example.net/sitemap.xml', lastmodAfter: '2026-11-01', priority: 'normal' } });
  answers.push(answer('post', sitemapPath, sitemap, sitemap.error ? `${sitemap.error.code} ${sitemap.error.field}` : `receipt ${sitemap.data?.receiptId ?? 'none'}, ${sitemap.data?.skipped.offHost} off host`));

  const deliveriesPath = '/api/websites/{website}/alerts/deliveries';
  const deliveries = await client.GET(deliveriesPath, { params: { path: { website }, query: { page: 1, perPage: 20, status: 'failed' } } });
  answers.push(answer('get', deliveriesPath, deliveries, deliveries.data && deliveries.data.meta.perPage !== 20 ? `unexpected meta: ${JSON.stringify(deliveries.data.meta)}` : undefined));
  const badDeliveries = await client.GET(deliveriesPath, { params: { path: { website }, query: { perPage: 0 } } });
  answers.push(answer('get', deliveriesPath, badDeliveries, badDeliveries.error && `${badDeliveries.error.code} ${badDeliveries.error.field}`));

  // The dashboard's session: signed in with the token, then by its cookie alone (and its CSRF token to sign out).
  const sessionPath = '/api/session';
  const signedIn = await createClient<paths>({ baseUrl }).POST(sessionPath, { body: { token } });
  answers.push(answer('post', sessionPath, signedIn));
  const badSignIn = await createClient<paths>({ baseUrl }).POST(sessionPath, { body: {} });
  answers.push(answer('post', sessionPath, badSignIn, badSignIn.error && `${badSignIn.error.code} ${badSignIn.error.field}`));
  const cookie = (signedIn.response.headers.get('set-cookie') ?? '').split(';')[0];
  const browser = createClient<paths>({ baseUrl, headers: { cookie } });
  answers.push(answer('get', sessionPath, await browser.GET(sessionPath)));
  const websitesPath = '/api/websites';
  answers.push(answer('get', websitesPath, await client.GET(websitesPath)));
  const signedOut = await browser.DELETE(sessionPath, { params: { header: { 'X-CSRF-Token': signedIn.data?.csrfToken ?? '' } } });
  answers.push(answer('delete', sessionPath, signedOut));

  const exportPath = '/api/websites/{website}/data-explorer/{explorerKey}/export';
  const exported = await client.POST(exportPath, { params: { path: { website, explorerKey: 'events' } }, body: { period: '7d', filename: 'typed-client', waitSeconds: 30 } });
  answers.push(answer('post', exportPath, exported));
  if (!exported.data) return answers;

  const statusPath = '/api/websites/{website}/data-explorer/export/{exportId}/status';
  const record = await client.GET(statusPath, { params: { path: { website, exportId: exported.data.exportId } } });
  answers.push(answer('get', statusPath, record));
  const unknown = await client.GET(statusPath, { params: { path: { website, exportId: 999_999 } } });
  answers.push(answer('get', statusPath, unknown, unknown.error?.code));
  const listPath = '/api/websites/{website}/data-explorer/exports';
  const listed = await client.GET(listPath, { params: { path: { website } } });
  const exportId = exported.data.exportId;
  answers.push(answer('get', listPath, listed, listed.data && !listed.data.exports.some((e) => e.exportId === exportId) ? `export ${exportId} not listed` : undefined));
  if (record.data?.status !== 'completed') return answers;

  // The link's parts, sent back through the typed operation: proves the document names them as the service reads them.
  const link = new URL(record.data.downloadUrl);
  const downloadPath = '/exports/download/{exportId}';
  const query_ = { expires: Number(link.searchParams.get('expires')), sig: link.searchParams.get('sig') ?? '' };
  const file = await client.GET(downloadPath, { params: { path: { exportId: record.data.exportId }, query: query_ }, parseAs: 'text' });
  answers.push(answer('get', downloadPath, file, file.data?.startsWith('"page",') ? undefined : `unexpected file: ${file.data?.slice(0, 80)}`));
  const forged = await client.GET(downloadPath, { params: { path: { exportId: record.data.exportId }, query: { ...query_, sig: '0'.repeat(64) } } });
  answers.push(answer('get', downloadPath, forged, forged.error?.code));
  return answers;
}
