export * from './envelope';
export * from './topics';
