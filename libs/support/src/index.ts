export * from './log-sink';
export * from './grown-buffer';
export * from './bounded-memo';
