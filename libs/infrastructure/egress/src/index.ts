// What a customer's page, sitemap or webhook may reach: the renderer's origin
// fetches and browser traffic, sitemap fetches (libs/ports/sitemaps) and alert
// webhooks (libs/features/alerts) connect under the same rules.
export { AddressPolicy } from './address-policy';
export { checkedDispatcher } from './checked-dispatcher';
export { CheckedDispatchers } from './checked-dispatchers';
export { EgressRefused, refusalOfUrl, targetOf } from './egress-rules';
export type { EgressRules, EgressTarget } from './egress-rules';
export { DEFAULT_RESOLVERS, dnsResolve, resolveCheckedAddress, systemResolve } from './checked-address';
export type { Resolvers } from './checked-address';
export { EGRESS_REFUSED_HEADER, EgressProxy } from './egress-proxy';
export { originUrl, publicLocation } from './origin-url';
