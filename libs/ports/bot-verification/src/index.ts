export type { Verification } from './verification';
export { rangesOf, type AddressRanges, type OperatorRangeFile, type PublishedRangeFile } from './published-ranges';
export { confirmsAddress, isUnderDomains, reverseLookupName, verificationOfLookupError, verifyByReverseDns, type DnsLookups } from './reverse-dns';
export { REVERSE_DNS_DOMAINS, VERIFIABLE_BOTS } from './operator-verification';
export { BOT_VERIFIER, BotVerifier, type BotVerifierOptions } from './bot-verifier';
export { isSampleRangeDir, RANGE_SOURCES, readRangeFiles, type RangeSource } from './range-files';
export { createDnsLookups, type DnsLookupsOptions } from './dns-lookups';
