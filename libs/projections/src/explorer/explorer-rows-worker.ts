import type { EventEnvelope } from '@bpc/events';
import { answerCalls } from '@bpc/event-log';
import { encodeExplorerRows } from './explorer-rows';
import type { RowsAnswer, RowsRequest } from './off-thread-explorer-rows';

/** Worker thread of `OffThreadExplorerRows`. */
function* eventsOf(request: RowsRequest): Generator<EventEnvelope> {
  const bytes = Buffer.from(request.lines.buffer, request.lines.byteOffset, request.lines.byteLength);
  for (let start = 0; start < bytes.length; ) {
    const end = bytes.indexOf(0x0a, start);
    yield JSON.parse(bytes.toString('utf8', start, end)) as EventEnvelope;
    start = end + 1;
  }
}

answerCalls<RowsRequest, RowsAnswer>((request) => {
  const { tables, skipped } = encodeExplorerRows(eventsOf(request));
  // Copied into buffers of their own so they can be transferred (the serialiser's may be shared or larger).
  const answer = { tables: [...tables].map(([table, rows]) => ({ table, jsonEachRow: new Uint8Array(rows.jsonEachRow), count: rows.count })), skipped };
  return { answer, transfer: answer.tables.map((t) => t.jsonEachRow.buffer) };
});
