export type { Verification } from './verification';
export { rangesOf, type AddressRanges, type OperatorRangeFile, type PublishedRangeFile } from './published-ranges';
export { confirmsAddress, isUnderDomains, reverseLookupName, verificationOfLookupError, verifyByReverseDns, type DnsLookups } from './reverse-dns';
export { REVERSE_DNS_DOMAINS, VERIFIABLE_BOTS } from './operator-verification';
export { BOT_VERIFIER, BotVerifier, type BotVerifierOptions } from './bot-verifier';
export { readRangeFiles, readRangeSet, SHIPPED_RANGES_DIR } from './range-files';
export { RANGE_SOURCES, type RangeSource } from './range-sources';
export { RANGE_SET_STALE_DAYS, rangeSetAge, rangeSetProblems, uncoveredRangeSources, type RangeFileSource, type RangeMirror, type RangeSet, type RangeSetAge } from './range-set';
export { createDnsLookups, type DnsLookupsOptions } from './dns-lookups';
