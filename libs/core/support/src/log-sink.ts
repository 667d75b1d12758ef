/**
 * The structured logger adapters and domain services write to (pino's call
 * shape), so libraries need no Nest or pino import.
 */
export interface LogSink {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const silentLog: LogSink = { info: () => undefined, warn: () => undefined, error: () => undefined };
