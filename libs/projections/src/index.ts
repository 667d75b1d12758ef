export * from './projections.module';
export * from './queue/queue-projector';
export * from './queue/queue-projection';
