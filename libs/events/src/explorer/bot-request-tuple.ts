import { BOT_REQUEST_RECORDED, BotRequestRecorded, BotRequestRecordedPayload, CacheStatus } from './bot-request-recorded.event';

/**
 * A `BotRequestRecorded` event as one flat array, the form in which the edge
 * buffers recorded requests and hands them to its recording thread. The edge
 * records every request it serves: one array per request, in place of the
 * envelope and its payload object, is cheaper to keep alive until the batch
 * is appended and to clone into another thread (no property names to write
 * and read back). The envelope is rebuilt where it is serialised.
 */
export type BotRequestTuple = readonly [
  id: string,
  occurredAt: string,
  websiteId: string,
  host: string,
  url: string,
  pageTitle: string,
  statusCode: number,
  botName: string,
  userAgent: string,
  dimensionId: number,
  dimensionName: string,
  cacheStatus: CacheStatus,
  serveTimeMs: number,
  snapshotAgeS: number | null,
  bytes: number,
  servedAt: string,
  requestId: string,
];

/** The tuple of the event `envelope(BOT_REQUEST_RECORDED, 1, payload, meta)` with the website as key. */
export function botRequestTuple(p: BotRequestRecordedPayload, meta: { readonly id: string; readonly occurredAt: string }): BotRequestTuple {
  return [
    meta.id,
    meta.occurredAt,
    p.websiteId,
    p.host,
    p.url,
    p.pageTitle,
    p.statusCode,
    p.botName,
    p.userAgent,
    p.dimensionId,
    p.dimensionName,
    p.cacheStatus,
    p.serveTimeMs,
    p.snapshotAgeS,
    p.bytes,
    p.servedAt,
    p.requestId,
  ];
}

/** The envelope a tuple stands for, with the fields in the order `envelope()` and the edge write them. */
export function botRequestEnvelope(t: BotRequestTuple): BotRequestRecorded {
  return {
    type: BOT_REQUEST_RECORDED,
    version: 1,
    id: t[0],
    occurredAt: t[1],
    key: t[2],
    payload: {
      websiteId: t[2],
      host: t[3],
      url: t[4],
      pageTitle: t[5],
      statusCode: t[6],
      botName: t[7],
      userAgent: t[8],
      dimensionId: t[9],
      dimensionName: t[10],
      cacheStatus: t[11],
      serveTimeMs: t[12],
      snapshotAgeS: t[13],
      bytes: t[14],
      servedAt: t[15],
      requestId: t[16],
    },
  };
}
