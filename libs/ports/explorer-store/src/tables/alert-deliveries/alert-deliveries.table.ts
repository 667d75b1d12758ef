/** One row per try to POST an alert to a website's webhook (008_alert_deliveries.sql): the delivery log reads it. */
export const ALERT_DELIVERIES_TABLE = 'alert_deliveries';

export type AlertDeliveryRow = {
  readonly website: string;
  readonly alert_id: string;
  readonly type: string;
  readonly attempt: number;
  readonly status: string;
  readonly http_status: number | null;
  readonly error: string;
  readonly ts: Date;
  readonly event_id: string;
};
