import type { TabCapacity } from './page-refresher.port';

export type TabPurpose = 'recache' | 'online';

/** Tabs only online renders may use: ceil(tabs × percent / 100), at most all of them. */
export function reservedTabs(tabs: number, reservationPercent: number): number {
  // The epsilon keeps float noise (e.g. 3 × 33.333…) from rounding up a whole tab.
  return Math.min(tabs, Math.max(0, Math.ceil((tabs * reservationPercent) / 100 - 1e-9)));
}

interface Waiter {
  readonly purpose: TabPurpose;
  resolve(slot: number): void;
}

function abortReason(signal: AbortSignal): Error {
  return signal.reason instanceof Error ? signal.reason : new Error('aborted while waiting for a tab');
}

/**
 * Who may use which tab. Slots `0 … reserved-1` are reserved for online
 * renders; the others are recache-eligible. An online render takes a free
 * reserved slot first, then any free slot; a recache render only an eligible
 * one, so reserved slots are never used by recache. Waiters are served as
 * slots free up, online before recache, each kind in arrival order.
 *
 * Concurrency: everything runs synchronously on the event loop, so a slot is
 * handed to exactly one caller; the caller must `release` it exactly once.
 */
export class TabSlots {
  readonly reserved: number;
  private readonly busy: boolean[];
  private readonly waiters: Waiter[] = [];

  constructor(readonly tabs: number, reservationPercent: number) {
    if (!Number.isSafeInteger(tabs) || tabs < 1) throw new Error(`tabs must be a positive integer, got ${tabs}`);
    if (!(reservationPercent >= 0 && reservationPercent <= 100)) throw new Error(`reservationPercent must be within 0..100, got ${reservationPercent}`);
    this.reserved = reservedTabs(tabs, reservationPercent);
    this.busy = Array.from({ length: tabs }, () => false);
  }

  /** Resolves with a slot for `purpose`, waiting until one frees up; rejects when `signal` aborts first. */
  acquire(purpose: TabPurpose, signal: AbortSignal): Promise<number> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    const slot = this.pick(purpose);
    if (slot !== undefined) return Promise.resolve(this.take(slot));
    return new Promise<number>((resolve, reject) => {
      const onAbort = (): void => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(abortReason(signal));
      };
      const waiter: Waiter = {
        purpose,
        resolve: (granted) => {
          signal.removeEventListener('abort', onAbort);
          resolve(granted);
        },
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(slot: number): void {
    if (!this.busy[slot]) throw new Error(`tab slot ${slot} released twice`);
    this.busy[slot] = false;
    this.dispatch();
  }

  capacity(): TabCapacity {
    let freeTabs = 0;
    let availableForRecache = 0;
    this.busy.forEach((busy, slot) => {
      if (busy) return;
      freeTabs++;
      if (slot >= this.reserved) availableForRecache++;
    });
    return { tabs: this.tabs, freeTabs, reservedForOnline: this.reserved, availableForRecache };
  }

  private pick(purpose: TabPurpose): number | undefined {
    const first = purpose === 'online' ? 0 : this.reserved;
    for (let slot = first; slot < this.tabs; slot++) if (!this.busy[slot]) return slot;
    return undefined;
  }

  private take(slot: number): number {
    this.busy[slot] = true;
    return slot;
  }

  private dispatch(): void {
    for (const purpose of ['online', 'recache'] as const) {
      for (let i = 0; i < this.waiters.length; ) {
        const waiter = this.waiters[i];
        const slot = waiter.purpose === purpose ? this.pick(purpose) : undefined;
        if (slot === undefined) {
          i++;
          continue;
        }
        this.waiters.splice(i, 1);
        waiter.resolve(this.take(slot));
      }
    }
  }
}
