import { gzipSync } from 'node:zlib';
import { renderMarkdown } from '@bpc/renderer';
import { answerCalls } from '@bpc/support';
import type { ConvertedMarkdown, MarkdownRequest } from './agent-markdown';

/** Worker thread of `markdownConverter`: converts one stored render at a time (and gzips it), off the thread that serves. */
answerCalls<MarkdownRequest, ConvertedMarkdown>((request) => {
  const { markdown, tokens, truncated } = renderMarkdown(request);
  const raw = Buffer.from(markdown, 'utf8');
  return { answer: { raw, gzipped: gzipSync(raw), tokens, truncated } };
});
