export * from './daemon.module';
export * from './http/internal-auth.hook';
export * from './http/daemon-error-body';
export * from './http/response-envelope';
export * from './get-status/get-status.query';
export * from './get-status/scheduler-view';
export * from './http/empty-json-body';
export * from './http/daemon-api-docs';
