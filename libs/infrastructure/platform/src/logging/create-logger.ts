import pino, { Logger } from 'pino';

/** One JSON line per event on stdout; `app` names the component in a shared process. */
export function createLogger(level: string, app: string): Logger {
  return pino({
    level,
    base: { app, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  });
}
