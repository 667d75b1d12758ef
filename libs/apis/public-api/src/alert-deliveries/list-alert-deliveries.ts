import { ALERT_TYPES, validationError } from '@bpc/domain';
import { ALERT_DELIVERIES_TABLE, type ExplorerStore } from '@bpc/explorer-store';
import { pagingParams } from '../http/paging-params';

export const DELIVERY_STATUSES = ['delivered', 'retrying', 'failed'] as const;
export const ALERT_TYPES_SHOWN = ALERT_TYPES;
export const DELIVERIES_PER_PAGE = { default: 50, max: 200 } as const;

export interface AlertDeliveriesQuery {
  readonly page: number;
  readonly perPage: number;
  readonly status?: (typeof DELIVERY_STATUSES)[number];
}

export interface AlertDeliveryView {
  readonly alertId: string;
  readonly type: (typeof ALERT_TYPES_SHOWN)[number];
  readonly attempt: number;
  readonly status: (typeof DELIVERY_STATUSES)[number];
  readonly httpStatus: number | null;
  readonly error: string;
  readonly at: string;
}

export interface AlertDeliveriesView {
  readonly data: readonly AlertDeliveryView[];
  readonly meta: { readonly page: number; readonly perPage: number; readonly total: number; readonly totalPages: number };
}

const KNOWN_PARAMS = new Set(['page', 'perPage', 'status']);

/** The query string, checked: VALIDATION_FAILED names the parameter (values come as text: "2" is page 2, "2.5" or "x" is refused). */
export function alertDeliveriesQuery(params: Readonly<Record<string, unknown>>): AlertDeliveriesQuery {
  const unknown = Object.keys(params).find((key) => !KNOWN_PARAMS.has(key));
  if (unknown !== undefined) throw validationError(unknown, `unknown query parameter ${unknown} (page, perPage, status)`);
  const { page, perPage } = pagingParams(params, DELIVERIES_PER_PAGE);
  const status = params.status;
  if (status === undefined) return { page, perPage };
  if (typeof status !== 'string' || !(DELIVERY_STATUSES as readonly string[]).includes(status)) throw validationError('status', `status must be one of ${DELIVERY_STATUSES.join(', ')}`);
  return { page, perPage, status: status as AlertDeliveriesQuery['status'] };
}

/** One page of the website's delivery log, newest try first. A page past the last is empty. */
export async function listAlertDeliveries(store: ExplorerStore, website: string, query: AlertDeliveriesQuery): Promise<AlertDeliveriesView> {
  const where = `website = {website:String}${query.status ? ' AND status = {status:String}' : ''}`;
  const params = { website, status: query.status ?? '', limit: query.perPage, offset: (query.page - 1) * query.perPage };
  const [counted, rows] = await Promise.all([
    store.query<{ total: number }>(`SELECT count() AS total FROM ${ALERT_DELIVERIES_TABLE} FINAL WHERE ${where}`, params),
    store.query<{ alertId: string; type: string; attempt: number; status: string; httpStatus: number | null; error: string; at: string }>(
      `SELECT alert_id AS alertId, type, attempt, status, http_status AS httpStatus, error, toString(ts) AS at
       FROM ${ALERT_DELIVERIES_TABLE} FINAL WHERE ${where}
       ORDER BY ts DESC, alert_id, attempt DESC LIMIT {limit:UInt32} OFFSET {offset:UInt64}`,
      params,
    ),
  ]);
  const total = Number(counted[0]?.total ?? 0);
  return {
    data: rows.map((r) => ({ alertId: r.alertId, type: r.type as AlertDeliveryView['type'], attempt: Number(r.attempt), status: r.status as AlertDeliveryView['status'], httpStatus: r.httpStatus === null ? null : Number(r.httpStatus), error: r.error, at: `${r.at.replace(' ', 'T')}Z` })),
    meta: { page: query.page, perPage: query.perPage, total, totalPages: Math.ceil(total / query.perPage) },
  };
}
