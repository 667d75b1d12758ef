export * from './explorer-store.port';
export * from './explorer-store-error';
export * from './chdb-executor';
export * from './clickhouse-http-executor';
export { defaultDdlDir } from './ddl-migration';
export { settingsClause } from './engine-settings';
export { encodeRows, toJsonEachRow } from './json-each-row';
