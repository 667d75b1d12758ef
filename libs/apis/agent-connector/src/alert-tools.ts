import { componentSchema, type JsonSchema } from './openapi-schemas';
import { ArgumentRefusal, toolSuccess } from './tool-result';
import { WEBSITE_ARGUMENT } from './tool-schemas';
import type { ToolArguments } from './tool-arguments';
import { call, ConnectorTool, guarded, object, readOnly, websitePath } from './tool-kit';

const STATUSES = ['delivered', 'retrying', 'failed'];

/** page / perPage / status as the API's query string; anything else is refused here with the argument's name, before any call. */
function deliveriesQuery(args: ToolArguments): string {
  const query = new URLSearchParams();
  for (const name of ['page', 'perPage'] as const) {
    const value = args[name];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value)) throw new ArgumentRefusal(name, `${name} must be an integer`);
    query.set(name, String(value));
  }
  if (args.status !== undefined) {
    if (typeof args.status !== 'string' || !STATUSES.includes(args.status)) throw new ArgumentRefusal('status', `status must be one of ${STATUSES.join(', ')}`);
    query.set('status', args.status);
  }
  const text = query.toString();
  return text ? `?${text}` : '';
}

export const listAlertDeliveries: ConnectorTool = {
  name: 'list_alert_deliveries',
  description:
    "The website's alert webhook delivery log, newest try first: one row per try to POST an alert (render_failures: failed renders in a window passed the threshold; page_errors: a page bots request often started answering 4xx/5xx; export_finished; noindex_appeared: noindex appeared on at least N pages within a window; critical_pages_up: pages with critical SEO issues up by at least X % day over day) to the webhook configured for the website, with status delivered, retrying (another try is due; 5 tries over about 30 minutes) or failed, the receiver's HTTP status (null when it did not answer) and the error. " +
    'Paging: 50 rows by default (perPage up to 200); meta.total and meta.totalPages say how many; call again with page+1 for more. `status` keeps one status only (e.g. failed). An empty log may mean the website has no webhook configured.',
  annotations: readOnly('List alert deliveries'),
  inputSchema: (): JsonSchema => ({
    type: 'object',
    properties: {
      website: WEBSITE_ARGUMENT,
      page: { type: 'integer', minimum: 1, description: '1-based page; default 1' },
      perPage: { type: 'integer', minimum: 1, maximum: 200, description: 'Rows per page; default 50' },
      status: { type: 'string', enum: STATUSES, description: 'Only tries with this status' },
    },
    required: ['website'],
  }),
  outputSchema: (document) => componentSchema(document, 'AlertDeliveriesDto'),
  run: guarded((api, args) =>
    call(api, { method: 'GET', path: `${websitePath(args)}/alerts/deliveries${deliveriesQuery(args)}` }, (body) => {
      const rows = Array.isArray(body.data) ? (body.data as Record<string, unknown>[]) : [];
      const meta = object(body.meta);
      const failed = rows.filter((r) => r.status === 'failed').length;
      const more = Number(meta.page) < Number(meta.totalPages) ? ` Call again with page ${Number(meta.page) + 1} for more.` : '';
      return toolSuccess(`${rows.length} of ${String(meta.total)} deliveries (page ${String(meta.page)} of ${String(meta.totalPages)}); ${failed} failed on this page.${more}`, body);
    }),
  ),
};
