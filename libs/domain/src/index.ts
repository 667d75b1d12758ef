export * from './queue/priority';
export * from './queue/recache-mode';
export * from './queue/queue-entry';
export * from './shared/assert-never';
export * from './shared/log-sink';
