export * from './ports';
export * from './open-ports';
export * from './runtime.module';
export * from './app-spec';
export * from './start-apps';
export * from './run-main';
