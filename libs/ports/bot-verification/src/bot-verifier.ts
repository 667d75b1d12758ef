import { LRUCache } from 'lru-cache';
import ipaddr from 'ipaddr.js';
import { REVERSE_DNS_DOMAINS, VERIFIABLE_BOTS } from './operator-verification';
import type { AddressRanges } from './published-ranges';
import { verifyByReverseDns, type DnsLookups } from './reverse-dns';
import type { Verification } from './verification';

/** The Nest token of the process's `BotVerifier` (the composition root opens it). */
export const BOT_VERIFIER = Symbol('BOT_VERIFIER');

export interface BotVerifierOptions {
  readonly ranges: AddressRanges;
  readonly lookups: DnsLookups;
  /** Domains per operator for forward-confirmed reverse DNS (default: what the operators document). */
  readonly reverseDnsDomains?: Readonly<Record<string, readonly string[]>>;
  /** The bots per operator whose claims its method covers (default: `VERIFIABLE_BOTS`). */
  readonly verifiableBots?: Readonly<Record<string, readonly string[]>>;
  /** Milliseconds since an epoch; injected so tests move time. */
  readonly now?: () => number;
  /** How long a `yes` or `no` from DNS holds before it is checked again (default 6 h). */
  readonly ttlMs?: number;
  /** How long an `unknown` from a failed check holds before it is tried again (default 1 min). */
  readonly unknownTtlMs?: number;
  /** How many (operator, address) answers are kept (default 100,000). */
  readonly maxEntries?: number;
  /** How many DNS checks run at once (default 8). */
  readonly maxConcurrentChecks?: number;
  /** How many checks may wait for a slot; beyond it a claim stays `unknown` until a later request (default 1,000). */
  readonly maxQueuedChecks?: number;
  /** The bound on one whole check (default 2 s). */
  readonly checkTimeoutMs?: number;
}

interface Answer {
  readonly verification: Verification;
  readonly expiresAt: number;
}

/**
 * Answers whether a bot is who it claims, without ever waiting: published
 * ranges are checked at once; a claim that needs DNS answers from the cache,
 * else `unknown` while a check runs in the background (bounded in
 * concurrency and queue, each check bounded in time). An expired answer is
 * still given while its refresh runs, so a known address never falls back
 * to `unknown`. Without an address, or for an operator with no documented
 * method, the answer is `unknown`.
 */
export class BotVerifier {
  private readonly answers: LRUCache<string, Answer>;
  private readonly pending = new Set<string>();
  private readonly queue: (() => Promise<void>)[] = [];
  private running = 0;
  private readonly idleWaiters: (() => void)[] = [];
  private readonly now: () => number;
  private readonly domains: Readonly<Record<string, readonly string[]>>;
  private readonly verifiableBots: ReadonlyMap<string, ReadonlySet<string>>;

  constructor(private readonly options: BotVerifierOptions) {
    this.answers = new LRUCache({ max: options.maxEntries ?? 100_000 });
    this.now = options.now ?? Date.now;
    this.domains = options.reverseDnsDomains ?? REVERSE_DNS_DOMAINS;
    this.verifiableBots = new Map(Object.entries(options.verifiableBots ?? VERIFIABLE_BOTS).map(([operator, names]) => [operator, new Set(names)]));
  }

  /**
   * Whether claims of this operator can be checked at all (it publishes
   * ranges or documents reverse DNS) and, given a bot name, whether its
   * method covers that bot (`verifiableBots`): the caller need not find an
   * address otherwise, and `verify` would answer for the operator's crawlers.
   */
  checks(claimedOperator: string, botName?: string): boolean {
    if (this.domains[claimedOperator] === undefined && !this.options.ranges.operators.has(claimedOperator)) return false;
    return botName === undefined || this.verifiableBots.get(claimedOperator)?.has(botName) === true;
  }

  /** The verification of `claimedOperator` for a request from `ip` (as the trusted proxy header gave it, or undefined); never waits. */
  verify(claimedOperator: string, ip: string | undefined): Verification {
    const domains = this.domains[claimedOperator];
    if (ip === undefined || !this.checks(claimedOperator)) return 'unknown';
    const key = `${claimedOperator} ${ip}`;
    const answer = this.answers.get(key);
    if (answer !== undefined && answer.expiresAt > this.now()) return answer.verification;
    // Not cached: a header's garbage must not fill the cache.
    if (!ipaddr.isValid(ip)) return 'unknown';
    // Published ranges decide at once (inside them, or outside them for an operator with no DNS method); they do not change, so neither does the answer.
    const { ranges } = this.options;
    if (ranges.operators.has(claimedOperator) && ranges.operatorOfAddress(ip) === claimedOperator) return this.remember(key, 'yes');
    if (domains === undefined) return this.remember(key, 'no');
    this.schedule(key, ip, domains);
    return answer?.verification ?? 'unknown';
  }

  private remember(key: string, verification: Verification): Verification {
    this.answers.set(key, { verification, expiresAt: Number.POSITIVE_INFINITY });
    return verification;
  }

  /** Resolves once no check is queued or running (tests wait on it; a shutdown may). */
  idle(): Promise<void> {
    if (this.running === 0 && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(key: string, ip: string, domains: readonly string[]): void {
    if (this.pending.has(key) || this.queue.length >= (this.options.maxQueuedChecks ?? 1_000)) return;
    this.pending.add(key);
    this.queue.push(async () => {
      try {
        const verification = await verifyByReverseDns(ip, domains, this.options.lookups, this.options.checkTimeoutMs ?? 2_000);
        const ttl = verification === 'unknown' ? (this.options.unknownTtlMs ?? 60_000) : (this.options.ttlMs ?? 6 * 3_600_000);
        this.answers.set(key, { verification, expiresAt: this.now() + ttl });
      } finally {
        this.pending.delete(key);
      }
    });
    this.drain();
  }

  private drain(): void {
    while (this.running < (this.options.maxConcurrentChecks ?? 8) && this.queue.length > 0) {
      const check = this.queue.shift()!;
      this.running++;
      void check().finally(() => {
        this.running--;
        this.drain();
        if (this.running === 0 && this.queue.length === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      });
    }
  }
}
