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

interface CrawlerRow {
  readonly name: string;
  readonly robots: string;
  readonly namedInRobotsTxt: boolean;
  readonly disallowedPaths: readonly string[];
  readonly requests: number;
  readonly disallowedRequests: number;
  readonly topDisallowedUrls: readonly { readonly url: string; readonly requests: number }[];
}

/** At most this many agents named per list in the summary line (the structured content has them all). */
const NAMED_AGENTS = 10;

const names = (rows: readonly CrawlerRow[], detail: (row: CrawlerRow) => string = (row) => row.name): string =>
  rows.length === 0 ? 'none' : rows.slice(0, NAMED_AGENTS).map(detail).join(', ') + (rows.length > NAMED_AGENTS ? ` and ${rows.length - NAMED_AGENTS} more` : '');

/** An agent worth the model's attention: it read the site, or the robots.txt names it (rules written for it). The others follow the rules for all bots, and are only counted. */
const notable = (row: CrawlerRow): boolean => row.requests > 0 || row.namedInRobotsTxt;

/** The answer a model can quote: the robots.txt read, whom it allows, restricts and blocks, who crawls disallowed pages anyway, and spoofed bots. */
function crawlersSummary(data: Record<string, unknown>, meta: Record<string, unknown>): string {
  const robotsTxt = object(data.robotsTxt);
  const summary = object(data.summary);
  const spoofed = object(data.spoofed);
  const agents = (Array.isArray(data.agents) ? data.agents : []) as CrawlerRow[];
  const ignoring = agents.filter((row) => row.disallowedRequests > 0);
  const claimed = (Array.isArray(spoofed.topClaimedBots) ? spoofed.topClaimedBots : []) as { bot: string; requests: number }[];
  const read = robotsTxt.state === 'rules' ? 'read' : `${String(robotsTxt.state)}${robotsTxt.reason ? ` (${String(robotsTxt.reason)})` : ''}`;
  return (
    `Period ${String(meta.period)}, robots.txt ${String(robotsTxt.url)} ${read}, checked on ${(Array.isArray(data.checkedPaths) ? data.checkedPaths : []).join(' ')}. ` +
    `Of ${agents.length} known AI agents it names ${String(summary.namedInRobotsTxt)} (${names(agents.filter((r) => r.namedInRobotsTxt), (r) => `${r.name} ${r.robots}${r.robots === 'partly_disallowed' ? ` ${r.disallowedPaths.join(' ')}` : ''}`)}); ` +
    `in all it allows ${String(summary.allowed)}, partly disallows ${String(summary.partlyDisallowed)}, blocks ${String(summary.blocked)}${summary.unknown ? `, unknown ${String(summary.unknown)}` : ''}. ` +
    `${String(summary.agentsSeen)} made ${String(summary.requests)} requests. ` +
    `Ignoring robots.txt (fetched disallowed pages anyway): ${names(ignoring, (r) => `${r.name} ${r.disallowedRequests} requests${r.topDisallowedUrls[0] ? `, most ${r.topDisallowedUrls[0].url}` : ''}`)}. ` +
    `Spoofed (claims proven false): ${String(spoofed.requests)} requests (${percent(spoofed.share)}), claiming ${claimed.map((c) => `${c.bot} ${c.requests}`).join(', ') || 'none'}; renders avoided ${String(spoofed.rendersAvoided)}.`
  );
}

export const getAiCrawlers: ConnectorTool = {
  name: 'get_ai_crawlers',
  description:
    "Which AI crawlers a website allows and which ignore its robots.txt: the site's robots.txt (fetched now or up to 5 minutes ago; `state` says when it could not be read) judged for every known AI agent (ai.robots.txt list: GPTBot, ClaudeBot, PerplexityBot, ChatGPT-User …) on `/`, the paths it disallows and the site's most requested paths: `allowed`, `partly_disallowed` (with the paths), `blocked` or `unknown`; each agent's requests in the period and those the edge recorded as disallowed by robots.txt (`robots_allowed = no`) with the top such URLs; and bot requests whose claim was proven false (`verified = no`: share, renders avoided, bots claimed, URLs). " +
    'The structured `agents` lists only those that read the site or that robots.txt names (the others follow the rules for all bots, `*`; `summary` counts all). Default period `30d`; `hostname` picks another of the website\'s hostnames; filters are the `events` explorer\'s. For an agent\'s rows, call query_explorer on `events` with {field: "bot_name", op: "equals", val: <name>} and {field: "robots_allowed", op: "eq", val: "no"}.',
  annotations: readOnly('Get AI crawlers and robots.txt'),
  inputSchema: (document): JsonSchema => withProperties(componentSchema(document, 'InsightsAiCrawlersDto'), { website: WEBSITE_ARGUMENT }, ['website']),
  outputSchema: (document) => componentSchema(document, 'InsightsAiCrawlersAnswerDto'),
  run: guarded((api, args) =>
    call(api, { method: 'POST', path: `${websitePath(args)}/insights/ai-crawlers`, body: bodyOf(args, ['website']) }, (body) => {
      const data = object(body.data);
      const agents = (Array.isArray(data.agents) ? data.agents : []) as CrawlerRow[];
      return toolSuccess(crawlersSummary(data, object(body.meta)), { ...body, data: { ...data, agents: agents.filter(notable) } });
    }),
  ),
};
