export * from './event-log.port';
