export * from './domain/api-token';
export * from './domain/identity-state';
export * from './domain/authorize';
export * from './index/identity-index';
export * from './issue-api-token/issue-api-token.command';
export * from './revoke-api-token/revoke-api-token.command';
export * from './list-api-tokens/list-api-tokens.query';
export * from './identity.module';
