export * from './explorer-store.port';
export * from './explorer-store-error';
export * from './chdb-executor';
export * from './clickhouse-http-executor';
export { EXPORT_TIME_LIMIT_S, settingsClause } from './engine-settings';
export { toJsonEachRow } from './json-each-row';
export * from './admission/fair-admission';
export * from './admission/explorer-admission';
export * from './admission/admitted-settings';
