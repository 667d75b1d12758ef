export const EXPORT_SLOTS = Symbol('EXPORT_SLOTS');

/** Who holds an account's export slot. */
export interface SlotHolder {
  readonly exportId: number;
  /** The replica running it (see `ExportSlots.claim`). */
  readonly owner: string;
  /** The question of the running export, so a replica that has not seen its record yet can still rejoin it. */
  readonly questionHash: string;
}

export type SlotClaim = { readonly claimed: true; readonly exportId: number } | { readonly claimed: false; readonly holder: SlotHolder };

/**
 * The account export slots and the export id counter (one running export per
 * account across every public-api replica).
 *
 * Guarantees, for every adapter:
 * - `claim` is one atomic step: if the account's slot is free it takes the
 *   next export id from the counter and holds the slot under a lease of
 *   `leaseMs`; otherwise it names the holder. Of concurrent claims for one
 *   account (from one process or, with Redis, from every replica sharing the
 *   store) exactly one succeeds.
 * - Ids are unique and increasing; `reserveIdsUpTo(n)` makes every later
 *   id greater than `n` (called after the record replay, so a wiped store
 *   never reuses an id the log knows).
 * - A lease not renewed within `leaseMs` ends by itself: the slot is free and
 *   `isLive` is false, so a crashed replica never holds a slot for ever.
 *   `renew` and `release` act only on the holder's own export id (a replica
 *   that lost its lease cannot touch the next holder's).
 * - Not durable beyond the lease: a restart (memory) or a Redis flush frees
 *   every slot; the records in the event log then tell which exports were
 *   cut off.
 */
export interface ExportSlots {
  /** True when other processes share these slots (Redis): the export records are then followed from the log, not only written. */
  readonly shared: boolean;
  claim(accountId: string, owner: string, questionHash: string, leaseMs: number): Promise<SlotClaim>;
  /** Extends the lease; false when the slot is no longer held by `exportId` (lease lost). */
  renew(accountId: string, exportId: number, leaseMs: number): Promise<boolean>;
  /** Frees the slot if `exportId` holds it; false otherwise. */
  release(accountId: string, exportId: number): Promise<boolean>;
  holder(accountId: string): Promise<SlotHolder | undefined>;
  /** Whether `exportId` holds its account's slot under a live lease. */
  isLive(accountId: string, exportId: number): Promise<boolean>;
  reserveIdsUpTo(exportId: number): Promise<void>;
  /** Readiness: throws with the reason when the store cannot be reached. */
  check(): Promise<void>;
  close(): Promise<void>;
}
