import type { Agent, Dispatcher } from 'undici';
import { AddressPolicy } from './address-policy';
import { CheckedDispatchers } from './checked-dispatchers';
import type { EgressRules } from './egress-rules';

const addresses = new AddressPolicy({ ownAddresses: () => [] });
/** Whether a dispatcher was closed (a checked dispatcher is an undici Agent). */
const closed = (dispatcher: Dispatcher): boolean => (dispatcher as Agent).closed;
const rulesFor = (origin?: string): EgressRules => ({ addresses, trustedOrigin: origin === undefined ? undefined : new URL(origin) });

describe('CheckedDispatchers', () => {
  it('keeps one dispatcher per trusted origin (one for none), or per key the caller names', async () => {
    const dispatchers = new CheckedDispatchers();
    const none = dispatchers.for(rulesFor());
    const shop = dispatchers.for(rulesFor('https://shop.example'));
    expect(dispatchers.for(rulesFor())).toBe(none);
    expect(dispatchers.for(rulesFor('https://shop.example/other/path'))).toBe(shop);
    expect(shop).not.toBe(none);
    expect(dispatchers.for(rulesFor('https://blog.example'))).not.toBe(shop);
    const website = dispatchers.for(rulesFor(), 'website-a');
    expect(website).not.toBe(none);
    expect(dispatchers.for(rulesFor(), 'website-a')).toBe(website);
    await dispatchers.close();
  });

  it('closes every dispatcher it made, and makes new ones after', async () => {
    const dispatchers = new CheckedDispatchers();
    const first = dispatchers.for(rulesFor());
    const second = dispatchers.for(rulesFor('https://shop.example'));
    await dispatchers.close();
    expect(closed(first)).toBe(true);
    expect(closed(second)).toBe(true);
    const again = dispatchers.for(rulesFor());
    expect(again).not.toBe(first);
    expect(closed(again)).toBe(false);
    await dispatchers.close();
  });
});
