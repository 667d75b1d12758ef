import type { ExplorerStore } from '../../explorer-store.port';

/** Where each projection into the store is in each log partition (003_projection_checkpoints.sql). */
export const CHECKPOINTS_TABLE = 'explorer_projection_checkpoints';

export type CheckpointRow = {
  /** `<topic>:<partition>` of the event log. */
  readonly stream: string;
  readonly next_offset: string;
  readonly updated_at: string;
};

/** Where to resume a partition: the checkpoint in ClickHouse, or the beginning (an empty store is rebuilt from the log). */
export async function checkpointOf(store: ExplorerStore, stream: string): Promise<string> {
  const rows = await store.query<{ next: string }>(`SELECT toString(max(next_offset)) AS next, count() AS n FROM ${CHECKPOINTS_TABLE} WHERE stream = {stream:String} HAVING n > 0`, { stream });
  return rows[0]?.next ?? '0';
}
