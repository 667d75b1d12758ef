export * from './public-api.module';
export * from './http/public-error-body';
export * from './auth/bearer-auth.guard';
export * from './auth/bearer-authentication.hook';
export * from './auth/admin-authentication.hook';
export * from './http/public-api-docs';
export * from './rate-limit/token-rate-limiter';
export * from './data-explorer/query-explorer.dto';
