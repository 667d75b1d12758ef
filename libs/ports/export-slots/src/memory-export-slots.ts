import { ExportSlots, SlotClaim, SlotHolder } from './export-slots.port';

/**
 * Slots in this process's memory (standalone mode: one process runs every
 * export). Each call decides synchronously, so claims cannot interleave.
 */
export class MemoryExportSlots implements ExportSlots {
  readonly shared = false;
  private readonly slots = new Map<string, SlotHolder & { until: number }>();
  private lastId = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async claim(accountId: string, owner: string, questionHash: string, leaseMs: number): Promise<SlotClaim> {
    const holder = this.live(accountId);
    if (holder) return { claimed: false, holder: { exportId: holder.exportId, owner: holder.owner, questionHash: holder.questionHash } };
    const exportId = ++this.lastId;
    this.slots.set(accountId, { exportId, owner, questionHash, until: this.now() + leaseMs });
    return { claimed: true, exportId };
  }

  async renew(accountId: string, exportId: number, leaseMs: number): Promise<boolean> {
    const holder = this.live(accountId);
    if (holder?.exportId !== exportId) return false;
    holder.until = this.now() + leaseMs;
    return true;
  }

  async release(accountId: string, exportId: number): Promise<boolean> {
    if (this.live(accountId)?.exportId !== exportId) return false;
    this.slots.delete(accountId);
    return true;
  }

  async holder(accountId: string): Promise<SlotHolder | undefined> {
    const holder = this.live(accountId);
    return holder && { exportId: holder.exportId, owner: holder.owner, questionHash: holder.questionHash };
  }

  async isLive(accountId: string, exportId: number): Promise<boolean> {
    return this.live(accountId)?.exportId === exportId;
  }

  async reserveIdsUpTo(exportId: number): Promise<void> {
    this.lastId = Math.max(this.lastId, exportId);
  }

  async check(): Promise<void> {}

  async close(): Promise<void> {
    this.slots.clear();
  }

  private live(accountId: string): (SlotHolder & { until: number }) | undefined {
    const holder = this.slots.get(accountId);
    if (holder && holder.until <= this.now()) {
      this.slots.delete(accountId);
      return undefined;
    }
    return holder;
  }
}
