import type { Dispatcher } from 'undici';
import type { Resolvers } from './checked-address';
import { checkedDispatcher } from './checked-dispatcher';
import type { EgressRules } from './egress-rules';

/**
 * One checked dispatcher (see `checkedDispatcher`) per key, made on first
 * use and kept for its connection pool: by default the key is the rules'
 * trusted origin ('' for none), since that is what tells two rules of one
 * client apart; a caller whose rules differ otherwise names its own key
 * (the alert webhooks, per website).
 */
export class CheckedDispatchers {
  private readonly byKey = new Map<string, Dispatcher>();

  constructor(private readonly resolvers?: Resolvers) {}

  /** The dispatcher for `rules`, made now if `key` has none yet. */
  for(rules: EgressRules, key: string = rules.trustedOrigin?.origin ?? ''): Dispatcher {
    let dispatcher = this.byKey.get(key);
    if (!dispatcher) {
      dispatcher = checkedDispatcher(rules, this.resolvers);
      this.byKey.set(key, dispatcher);
    }
    return dispatcher;
  }

  /** Closes every dispatcher made so far (a pool that fails to close is nothing a caller can act on at shutdown); the next `for` makes new ones. */
  async close(): Promise<void> {
    const dispatchers = [...this.byKey.values()];
    this.byKey.clear();
    await Promise.all(dispatchers.map((dispatcher) => dispatcher.close().catch(() => undefined)));
  }
}
