export * from './recorded-results';
export * from './projection-offsets';
