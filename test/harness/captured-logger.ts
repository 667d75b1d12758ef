import { Writable } from 'node:stream';
import pino, { Logger } from 'pino';

/** A logger whose JSON lines a test reads (from `level` up, as an operator's log shows them). */
export function capturedLogger(level = 'warn'): { readonly logger: Logger; readonly lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level }, sink), lines };
}

/** The messages of `lines` that contain `text`. */
export function messagesWith(lines: readonly Record<string, unknown>[], text: string): string[] {
  return lines.flatMap((line) => (typeof line.msg === 'string' && line.msg.includes(text) ? [line.msg] : []));
}
