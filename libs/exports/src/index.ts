export * from './exports.module';
export * from './domain/export-question';
export * from './domain/export-record';
export * from './domain/download-link';
export * from './http/export-error';
export { buildExportSql } from './csv/export-sql';
