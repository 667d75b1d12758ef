export * from './export-slots.port';
export * from './memory-export-slots';
export * from './redis-export-slots';
