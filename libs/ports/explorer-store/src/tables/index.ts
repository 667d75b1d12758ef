export * from './explorer-ddl';
export * from './bot-requests/bot-requests.table';
export * from './search-performance/search-performance.table';
export * from './projection-checkpoints/projection-checkpoints.table';
export * from './render-outcomes/render-outcomes.table';
export * from './recache-receipts/recache-receipts.table';
export * from './alert-deliveries/alert-deliveries.table';
