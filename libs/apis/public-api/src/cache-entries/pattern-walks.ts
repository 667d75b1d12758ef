import { Injectable } from '@nestjs/common';
import type { CacheEntrySelection } from '@bpc/cache-store';
import { AppError } from '@bpc/domain';

/** Pattern walks of one host's cache entries this process runs at once; more wait for none (503, retry). */
export const PATTERN_WALKS_PER_HOST = 2;

/**
 * Bounds the pattern walks over a host's entries. A pattern (`urlFilter`)
 * is tested on every URL under its literal prefix, which for an unanchored
 * pattern is the whole host: hundreds of thousands of URLs read from the
 * cache store per call. Rate limits bound a token's calls, not what they
 * cost, so a few concurrent walks per host (per replica) run and the rest
 * are refused at once with EXPLORER_BUSY and `Retry-After`: the store keeps
 * serving bots. Prefix-only listings are a range read and are not counted.
 */
@Injectable()
export class PatternWalks {
  private readonly running = new Map<number, number>();

  async run<T>(hostId: number, selection: CacheEntrySelection, walk: () => Promise<T>): Promise<T> {
    if (!selection.urlFilter) return walk();
    const now = this.running.get(hostId) ?? 0;
    if (now >= PATTERN_WALKS_PER_HOST) {
      throw new AppError('EXPLORER_BUSY', `${now} pattern searches of this website's cache are running: retry in a moment, or give a prefix (or a pattern starting with ^ and the URL's start)`, undefined, undefined, 1);
    }
    this.running.set(hostId, now + 1);
    try {
      return await walk();
    } finally {
      const left = (this.running.get(hostId) ?? 1) - 1;
      if (left > 0) this.running.set(hostId, left);
      else this.running.delete(hostId);
    }
  }
}
