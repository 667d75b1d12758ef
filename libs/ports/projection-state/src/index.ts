export * from './recorded-results';
export * from './projection-offsets';
export * from './projection-ledger';
