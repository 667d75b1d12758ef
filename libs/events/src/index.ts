export * from './envelope';
export * from './topics';
export * from './json-schema';
export * from './event-catalog';
export * from './queue/recache-requested.event';
