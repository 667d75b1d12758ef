import type { EventEnvelope } from '@bpc/events';
import { answerCalls } from '@bpc/support';
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
  // Each table's bytes have a buffer of their own (toJsonEachRow never uses the shared pool): transferred, not copied.
  const answer = { tables: [...tables].map(([table, rows]) => ({ table, jsonEachRow: rows.jsonEachRow, count: rows.count })), skipped };
  return { answer, transfer: answer.tables.map((t) => t.jsonEachRow.buffer as ArrayBuffer) };
});
