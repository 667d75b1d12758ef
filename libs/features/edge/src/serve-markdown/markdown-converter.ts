import path from 'node:path';
import { type LogSink, WorkerCalls } from '@bpc/support';
import type { ConvertedMarkdown, ConvertMarkdown, MarkdownRequest } from './agent-markdown';

/** Largest heap the conversion thread may use: a hostile page fails its conversion (served as HTML), never the edge. */
const WORKER_HEAP_MB = 512;

/**
 * Conversions in a worker thread of their own (`markdown-worker`, started on
 * first use): a typical page takes 10–50 ms of Readability, turndown and
 * tokenizing, and a hostile one seconds, which on the serving thread would
 * hold every other bot's answer. One thread: conversions queue behind each
 * other; hits (already converted) never wait for it.
 */
export function markdownConverter(log: LogSink): { readonly convert: ConvertMarkdown; close(): Promise<void> } {
  const worker = new WorkerCalls<MarkdownRequest, ConvertedMarkdown>({
    script: path.join(__dirname, 'markdown-worker'),
    label: 'Markdown for agents',
    log,
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  });
  return { convert: (request) => worker.call(request), close: () => worker.close() };
}
