import { OUTCOME_CLASSES, RENDER_OUTCOMES, RENDER_TRIGGERS, rendersCatalog } from '@bpc/explorer';
import { componentSchema, withProperties } from './openapi-schemas';
import { bodyOf } from './tool-arguments';
import { toolSuccess } from './tool-result';
import { QUERY_OUTPUT, WEBSITE_ARGUMENT } from './tool-schemas';
import { nextPageOf, querySummary, withoutRowIds } from './tool-summaries';
import { call, ConnectorTool, DEFAULT_TOOL_ROWS, guarded, object, readOnly, websitePath } from './tool-kit';

/** The catalog's keys as the API validates them (dimensions are the host's: any names do for the text here). */
const catalog = rendersCatalog(0, []);
const columnsOf = (mode: string) => catalog.columns.filter((c) => c.modes.some((m) => m === mode)).map((c) => c.key).join(', ');
const list = (values: readonly string[]) => values.join(', ');

/** Render history: which renders failed or kept the old snapshot, and why. */
export const queryRenders: ConnectorTool = {
  name: 'query_renders',
  description:
    "Render history of a website's pages: every browser render and origin fetch (recaches, autorecache, sitemap recaches, edge misses) with its outcome and reason. " +
    `Mode \`renders\` (default): one row per render (columns ${columnsOf('renders')}); mode \`reasons\`: one row per outcome and reason (columns ${columnsOf('reasons')}), most renders first: use it to see why renders fail. ` +
    `Outcomes: ${list(RENDER_OUTCOMES)}; outcome classes (filter \`outcome_class\`): ${list(OUTCOME_CLASSES)} (kept = the old snapshot was kept: blank, timeout, soft 404, much smaller, or a fresher render won; failed = retry_scheduled, gave_up, failed). ` +
    `Triggers: ${list(RENDER_TRIGGERS)}. Filters {field, op, val}: url, reason (text: contains, equals, regex …), outcome, outcome_class, trigger, mode (render|bypass), dimension (enum: eq, ne), status_code, render_ms (numbers: eq, gt, between …). ` +
    `Times UTC, render_ms in ms, bytes in bytes, status_code 0 when no page came back; receipt: the recache receipt of the request that queued the rendered entry (get_recache_receipt reads it), empty otherwise. Period: 24h, 7d (default), 14d, 28d, 30d, 90d or YYYY-MM-DD,YYYY-MM-DD (at most 365 days). ` +
    `Paging: ${DEFAULT_TOOL_ROWS} rows by default; call again with page=nextPage for more. Failures first: mode reasons with filter {field: "outcome_class", op: "ne", val: "stored"}.`,
  annotations: readOnly('Query render history'),
  inputSchema: (document) =>
    withProperties(componentSchema(document, 'QueryRendersDto'), { website: WEBSITE_ARGUMENT }, ['website'], {
      perPage: { description: `Rows per page; default ${DEFAULT_TOOL_ROWS} here (at most the account's perPageMax, 500)` },
      page: { description: '1-based page; default 1. Use the nextPage of the previous result, with the same other arguments' },
    }),
  outputSchema: () => QUERY_OUTPUT,
  run: guarded((api, args) => {
    const body = { perPage: DEFAULT_TOOL_ROWS, ...bodyOf(args, ['website']) };
    return call(api, { method: 'POST', path: `${websitePath(args)}/renders/query`, body }, (answer) => {
      const rows = withoutRowIds(Array.isArray(answer.data) ? answer.data : []);
      const meta = object(answer.meta);
      const nextPage = nextPageOf(meta);
      return toolSuccess(querySummary(rows.length, meta, nextPage).replace('call query_explorer again', 'call query_renders again'), { rows, meta, nextPage });
    });
  }),
};
