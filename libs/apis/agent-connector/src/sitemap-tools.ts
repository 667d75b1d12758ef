import { componentSchema, withProperties } from './openapi-schemas';
import { bodyOf } from './tool-arguments';
import { toolSuccess } from './tool-result';
import { WEBSITE_ARGUMENT } from './tool-schemas';
import { call, ConnectorTool, guarded, websitePath } from './tool-kit';

/** Recache a whole sitemap: `POST …/cache/recache-sitemap` (docs/sitemaps.md). */
export const recacheSitemap: ConnectorTool = {
  name: 'recache_sitemap',
  description:
    "Queues every page of a sitemap or sitemap index (gzip too) for re-rendering (manager role): give the sitemap's absolute URL on the website's host. Only URLs on the website's hostnames are taken; `lastmodAfter` (YYYY-MM-DD or an ISO timestamp with a zone) keeps only entries modified later. Returns receiptId (follow it with get_recache_receipt), sitemapsRead, urlsFound, urlsAccepted, entriesEnqueued (URLs × cache dimensions) and what was skipped (offHost, invalid, overCap, notModified, duplicate). A sitemap that cannot be read whole (internal address, redirect to another host, not XML, a DOCTYPE, over 50 MB or 50,000 URLs a file, an index in an index, more than 100 sitemaps) is refused with VALIDATION_FAILED on sitemapUrl and nothing is queued. Ask the user before calling it: a sitemap can queue tens of thousands of renders.",
  annotations: { title: 'Recache a sitemap', readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  inputSchema: (document) => withProperties(componentSchema(document, 'RecacheWebsiteSitemapDto'), { website: WEBSITE_ARGUMENT }, ['website']),
  outputSchema: (document) => componentSchema(document, 'RecacheWebsiteSitemapResponseDto'),
  run: guarded((api, args) =>
    call(api, { method: 'POST', path: `${websitePath(args)}/cache/recache-sitemap`, body: bodyOf(args, ['website']) }, (body) => {
      const skipped = (body.skipped ?? {}) as Record<string, number>;
      const skippedText = Object.entries(skipped).filter(([, n]) => n > 0).map(([why, n]) => `${n} ${why}`).join(', ');
      return toolSuccess(
        `${body.sitemapsRead} sitemap file(s) read, ${body.urlsFound} URL(s) found, ${body.urlsAccepted} accepted, ${body.entriesEnqueued} render job(s) queued${skippedText ? `; skipped: ${skippedText}` : ''}${body.receiptId ? `. Receipt ${String(body.receiptId)}.` : '. Nothing queued, no receipt.'}`,
        body,
      );
    }),
  ),
};
