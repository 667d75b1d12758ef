export * from './projections.module';
export * from './queue/queue-projector';
export * from './queue/queue-projection';
export * from './explorer/explorer-projector';
export * from './explorer/explorer-projection';
export * from './cache/cache-projector';
export * from './receipts/receipt-projector';
export * from './receipts/receipt-projection';
