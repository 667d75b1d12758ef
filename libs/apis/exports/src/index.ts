export * from './exports.module';
export * from './domain/export-question';
export * from './domain/export-record';
export * from './domain/download-link';
export { buildExportSql, EXPORT_RESOURCE_SETTINGS } from './csv/export-sql';
export { StartExportDto } from './start-export/start-export.dto';
