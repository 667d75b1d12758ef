export * from './engines';
export * from './env';
export * from './test-config';
export * from './http';
export * from './spawned-service';
export * from './test-clock';
export * from './daemon-client';
export * from './test-origin';
