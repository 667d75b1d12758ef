import Negotiator from 'negotiator';

/** What the edge answers a bot with: the rendered page, or its Markdown for agents. */
export const ANSWER_FORMATS = ['html', 'markdown'] as const;
export type AnswerFormat = (typeof ANSWER_FORMATS)[number];

/** Our preference when the client cannot tell them apart (`*\/*`): HTML, what every bot understood before. */
const OFFERED = ['text/html', 'text/markdown'];

/**
 * The format a bot's `Accept` asks for, by real content negotiation
 * (q-values, specificity, the client's order; `negotiator`, the library
 * Express and Koa negotiate with): Markdown when the client ranks
 * `text/markdown` above `text/html` (by q-value, then specificity, then its
 * own order), else HTML. A header that names Markdown nowhere, or cannot be
 * read, gets HTML.
 */
export function answerFormatOf(accept: string | undefined): AnswerFormat {
  if (!accept || !/markdown/i.test(accept)) return 'html';
  const preferred = new Negotiator({ headers: { accept } }).mediaType(OFFERED);
  return preferred === 'text/markdown' ? 'markdown' : 'html';
}
