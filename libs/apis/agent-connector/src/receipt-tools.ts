import { componentSchema, withoutExamples } from './openapi-schemas';
import { pathSegment } from './tool-arguments';
import { call, ConnectorTool, DEFAULT_TOOL_ROWS, guarded, object, readOnly, websitePath } from './tool-kit';
import { toolSuccess } from './tool-result';
import { WEBSITE_ARGUMENT } from './tool-schemas';

const RECEIPT_STATES = ['queued', 'rendering', 'stored', 'kept', 'failed'];

/**
 * Recache receipts: how the pages of one recache_urls call (or a sitemap
 * recache) went, entry by entry.
 */
export const getRecacheReceipt: ConnectorTool = {
  name: 'get_recache_receipt',
  description:
    'How a recache went, per URL and cache dimension: `queued` → `rendering` → `stored` (fresh snapshot), `kept` (the old snapshot stayed; `reason` says why: blank, timed out, soft 404, much smaller) or `failed` (`reason` says why). Pass the `receiptId` recache_urls returned. Answers totals per state, `done` (nothing queued or rendering any more) and one page of entries (50 by default, up to 500; `page` for more), optionally only one `state` (e.g. `failed` to see what went wrong). Call again to follow a recache until `done`; get_queue_status estimates how long the queue takes to drain.',
  annotations: readOnly('Get recache receipt'),
  inputSchema: () => ({
    type: 'object',
    properties: {
      website: WEBSITE_ARGUMENT,
      receiptId: { type: 'string', description: 'The receiptId a recache_urls call returned' },
      state: { type: 'string', enum: RECEIPT_STATES, description: 'Only entries in this state' },
      page: { type: 'integer', minimum: 1, description: '1-based page of entries (default 1)' },
      perPage: { type: 'integer', minimum: 1, maximum: 500, description: `Entries per page (default ${DEFAULT_TOOL_ROWS})` },
    },
    required: ['website', 'receiptId'],
  }),
  outputSchema: (document) => withoutExamples(componentSchema(document, 'RecacheReceiptDto')),
  run: guarded((api, args) => {
    const path = `${websitePath(args)}/cache/receipts/${pathSegment(args, 'receiptId')}`;
    // Every other argument goes to the query string as given, so the API names a bad or unknown one as it would for any client.
    const query = new URLSearchParams({ perPage: String(DEFAULT_TOOL_ROWS) });
    for (const [key, value] of Object.entries(args)) if (key !== 'website' && key !== 'receiptId') query.set(key, String(value));
    return call(api, { method: 'GET', path: `${path}?${query}` }, (body) => {
      const totals = object(body.totals);
      const meta = object(body.meta);
      const progress = body.done ? 'done' : 'in progress';
      const more = Number(meta.page) < Number(meta.totalPages) ? ` Page ${meta.page} of ${meta.totalPages}: call again with page ${Number(meta.page) + 1} for more.` : '';
      return toolSuccess(
        `Receipt ${body.receiptId} (${progress}): ${totals.entries} entr(ies): ${totals.queued} queued, ${totals.rendering} rendering, ${totals.stored} stored, ${totals.kept} kept, ${totals.failed} failed.${more}`,
        body,
      );
    });
  }),
};
