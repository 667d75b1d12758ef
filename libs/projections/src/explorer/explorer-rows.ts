import { asExplorerEvent, type EventEnvelope } from '@bpc/events';
import { encodeRows, type EncodedRows } from '@bpc/explorer-store';
import { explorerRows, type TableRows } from './explorer-projection';

/** Explorer rows of a batch of events, serialised per table; events that are not explorer events are reported by index. */
export interface EncodedBatch {
  readonly tables: ReadonlyMap<string, EncodedRows>;
  readonly skipped: readonly { readonly index: number; readonly type: unknown }[];
}

/** The rows of `events` (pure but for serialising): what the projector inserts for them. */
export function encodeExplorerRows(events: Iterable<EventEnvelope>): EncodedBatch {
  const rows: TableRows = new Map();
  const skipped: { index: number; type: unknown }[] = [];
  let index = 0;
  for (const envelope of events) {
    const event = asExplorerEvent(envelope);
    if (event) explorerRows(event, rows);
    else skipped.push({ index, type: envelope.type });
    index += 1;
  }
  return { tables: new Map([...rows].map(([table, list]) => [table, encodeRows(list)])), skipped };
}
