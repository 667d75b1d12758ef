export * from './log-sink';
export * from './grown-buffer';
export * from './bounded-memo';
export * from './backoff';
export * from './retry-until-stopped';
export * from './caught-up-within';
export * from './worker-calls';
export * from './log-throttle';
