export * from './cache-operations.module';
export * from './queue-activity';
export * from './projection/record-and-project';
export * from './request-recache/request-recache.command';
export * from './request-recache/receipt-id';
export * from './invalidate-cache/invalidate-cache.command';
export * from './recache-sitemap/recache-sitemap.command';
