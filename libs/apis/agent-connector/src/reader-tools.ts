import { componentSchema, withProperties, type JsonSchema } from './openapi-schemas';
import { bodyOf } from './tool-arguments';
import { toolSuccess } from './tool-result';
import { WEBSITE_ARGUMENT } from './tool-schemas';
import { call, ConnectorTool, guarded, object, readOnly, websitePath } from './tool-kit';

interface CategoryRow {
  readonly category: string;
  readonly requests: number;
  readonly share: number;
}

interface AiPageRow {
  readonly category: string;
  readonly url: string;
  readonly requests: number;
}

const percent = (share: unknown) => (typeof share === 'number' ? `${Math.round(share * 1000) / 10} %` : 'no share');

/** One line a model can quote: AI agents' share, the categories, and each AI category's most read page. */
function readersSummary(data: Record<string, unknown>, period: unknown): string {
  const ai = object(data.aiAgents);
  const categories = (Array.isArray(data.categories) ? data.categories : []) as CategoryRow[];
  const pages = (Array.isArray(data.topAiPages) ? data.topAiPages : []) as AiPageRow[];
  const firsts = pages.filter((p, i) => pages.findIndex((q) => q.category === p.category) === i).map((p) => `${p.category} read ${p.url} ${p.requests} times`);
  return (
    `Period ${String(period)}: ${String(data.requests)} bot requests; AI agents ${String(ai.requests)} requests on ${String(ai.pages)} pages (${percent(ai.share)}). ` +
    `By category: ${categories.map((c) => `${c.category} ${c.requests} (${percent(c.share)})`).join(', ') || 'none'}.` +
    (firsts.length ? ` Most read by AI agents: ${firsts.join('; ')}.` : '')
  );
}

export const getBotCategories: ConnectorTool = {
  name: 'get_bot_categories',
  description:
    "Who reads a website's pages: its bot requests in a period split by bot category (search, ai_search, ai_assistant = fetched because a person asked an AI assistant, ai_training, social, seo_tool, monitoring, other), each with requests, share of all bot requests (0..1) and distinct pages; AI agents (ai_search + ai_assistant + ai_training) together; and up to 5 most requested pages per AI category. " +
    "Default period `30d`; filters are the `events` explorer's (e.g. {field: \"verified\", op: \"eq\", val: \"yes\"} for bots proven to be who they claim, {field: \"bot_operator\", op: \"equals\", val: \"OpenAI\"}). For a category's rows, call query_explorer on `events` with a `bot_category` filter.",
  annotations: readOnly('Get bot categories'),
  inputSchema: (document): JsonSchema => withProperties(componentSchema(document, 'InsightsBotCategoriesDto'), { website: WEBSITE_ARGUMENT }, ['website']),
  outputSchema: (document) => componentSchema(document, 'InsightsBotCategoriesAnswerDto'),
  run: guarded((api, args) =>
    call(api, { method: 'POST', path: `${websitePath(args)}/insights/bot-categories`, body: bodyOf(args, ['website']) }, (body) => toolSuccess(readersSummary(object(body.data), object(body.meta).period), body)),
  ),
};
